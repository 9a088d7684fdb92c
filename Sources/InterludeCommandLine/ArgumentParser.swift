/// A command's declared interface: what it does, its arguments and options, and how to print its
/// help. Parsing is table-driven: each command declares a ``CommandSpec`` and gets back
/// ``ParsedArguments``.
struct CommandSpec: Sendable {
    /// An option such as `--format json` or a flag such as `--canonical`.
    struct Option: Sendable {
        var long: String
        var short: Character?
        var valueName: String?
        var help: String
        var isRepeatable = false

        var takesValue: Bool { valueName != nil }
    }

    /// A positional argument.
    struct Argument: Sendable {
        var name: String
        var help: String
        var isVariadic = false
        var isOptional = false
    }

    var name: String
    var abstract: String
    var discussion: String = ""
    var arguments: [Argument] = []
    var options: [Option] = []
    var examples: [String] = []

    /// `OVERVIEW / USAGE / ARGUMENTS / OPTIONS / EXAMPLES`, the layout of swift-argument-parser.
    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        var usage = "interlude \(name)"
        if !options.isEmpty { usage += " [options]" }
        for argument in arguments {
            var token = "<\(argument.name)>"
            if argument.isVariadic { token += " ..." }
            if argument.isOptional { token = "[\(token)]" }
            usage += " " + token
        }
        text += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += Self.row("<\(argument.name)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var left = option.short.map { "-\($0), " } ?? ""
            left += "--\(option.long)"
            if let valueName = option.valueName { left += " <\(valueName)>" }
            text += Self.row(left, option.help + (option.isRepeatable ? " (repeatable)" : ""))
        }
        text += Self.row("-h, --help", "Show help information.")
        if !examples.isEmpty {
            text += "\nEXAMPLES:\n"
            for example in examples { text += "  \(example)\n" }
        }
        return text
    }

    private static func row(_ left: String, _ right: String) -> String {
        let width = 28
        let padded = left.count < width - 2 ? left + String(repeating: " ", count: width - 2 - left.count) : left + "\n" + String(repeating: " ", count: width)
        return "  \(padded)\(right)\n"
    }

    /// Parses `arguments` (without the command name).
    ///
    /// - Throws: ``UsageError`` for unknown options, missing values or arguments; ``HelpRequest``
    ///   for `-h` / `--help`.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !onlyPositionals, argument == "--" {
                onlyPositionals = true
                continue
            }
            if !onlyPositionals, argument == "-h" || argument == "--help" { throw HelpRequest(text: helpText) }
            if !onlyPositionals, argument.hasPrefix("-"), argument.count > 1 {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                let option: Option?
                if name.hasPrefix("--") {
                    option = options.first { "--\($0.long)" == name }
                } else {
                    option = name.count == 2 ? options.first { $0.short.map { "-\($0)" } == name } : nil
                }
                guard let option else {
                    throw UsageError(message: "unknown option '\(name)'", command: self)
                }
                if option.takesValue {
                    let value: String
                    if let inlineValue {
                        value = inlineValue
                    } else {
                        guard index < arguments.count else {
                            throw UsageError(message: "option '--\(option.long)' needs a value <\(option.valueName!)>", command: self)
                        }
                        value = arguments[index]
                        index += 1
                    }
                    if !option.isRepeatable, parsed.values[option.long] != nil {
                        throw UsageError(message: "option '--\(option.long)' given more than once", command: self)
                    }
                    parsed.values[option.long, default: []].append(value)
                } else {
                    if inlineValue != nil {
                        throw UsageError(message: "flag '--\(option.long)' takes no value", command: self)
                    }
                    parsed.flags.insert(option.long)
                }
            } else {
                parsed.positionals.append(argument)
            }
        }
        let minimum = self.arguments.filter { !$0.isOptional }.count
        let isVariadic = self.arguments.last?.isVariadic == true
        if parsed.positionals.count < minimum {
            let missing = self.arguments[parsed.positionals.count]
            throw UsageError(message: "missing argument <\(missing.name)>", command: self)
        }
        if !isVariadic, parsed.positionals.count > self.arguments.count {
            throw UsageError(message: "unexpected argument '\(parsed.positionals[self.arguments.count])'", command: self)
        }
        return parsed
    }
}

/// The result of parsing a command's arguments.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ long: String) -> String? { values[long]?.last }
    func values(_ long: String) -> [String] { values[long] ?? [] }
    func flag(_ long: String) -> Bool { flags.contains(long) }
}

/// Bad usage: printed with the command's usage line; the process exits with 64 (EX_USAGE).
struct UsageError: Error {
    var message: String
    var command: CommandSpec?
}

/// `-h` / `--help` was given: print the text on stdout and exit 0.
struct HelpRequest: Error {
    var text: String
}

/// A failure while running a command: the message goes to stderr and the process exits with
/// `exitCode` (1 for runtime errors).
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32 = 1
}
