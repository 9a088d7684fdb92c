#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

exit(PlayerBenchCommand.run(Array(CommandLine.arguments.dropFirst())))
