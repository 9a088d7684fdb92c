import Glibc

/// What the player reads from its environment.
public enum ProcessEnvironment {
    /// `$DISPLAY`, when set and not empty.
    static var display: String? {
        guard let value = getenv("DISPLAY") else { return nil }
        let display = String(cString: value)
        return display.isEmpty ? nil : display
    }

    /// CLOCK_REALTIME in nanoseconds: the clock `interlude join --trace` times its samples by,
    /// so that the samples of several processes compare.
    public static var realTime: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

extension ProcessEnvironment {
    /// Writes `line` and a newline to `descriptor` at once (1 stdout, 2 stderr): no buffer to
    /// flush before an exit.
    public static func write(_ line: String, to descriptor: Int32 = 1) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The CPU time this process used so far (user and system), in seconds.
    public static var cpuSeconds: Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
