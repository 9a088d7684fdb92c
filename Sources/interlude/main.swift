import Foundation
import InterludeCommandLine

exit(await InterludeCommand.run(Array(CommandLine.arguments.dropFirst()), io: .standard))
