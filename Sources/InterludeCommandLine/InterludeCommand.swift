/// The `interlude` command line.
public enum InterludeCommand {
    /// Runs the command line with the process arguments and exits.
    public static func main() {}
}
