#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

exit(await OriginBenchCommand.run(Array(CommandLine.arguments.dropFirst())))
