#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import CHeapStatistics

/// What the process has used so far: CPU time (`getrusage`), resident memory (Linux's
/// `/proc/self/status`) and the C heap in use (glibc's `mallinfo2`, through `CHeapStatistics`).
struct ProcessResources {
    /// User plus system CPU time of every thread, in seconds.
    var cpuSeconds: Double
    /// Resident set size now (`VmRSS`), in bytes; 0 where `/proc` is missing.
    var residentBytes: Int
    /// The largest resident set size so far (`VmHWM`), in bytes; 0 where `/proc` is missing.
    var peakResidentBytes: Int
    /// Heap handed out and not yet freed, allocator headers included, in bytes.
    var heapBytes: Int

    /// The figures now.
    static func now() -> ProcessResources {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let status = statusFields(["VmRSS", "VmHWM"])
        return ProcessResources(
            cpuSeconds: cpu, residentBytes: (status["VmRSS"] ?? 0) * 1024,
            peakResidentBytes: (status["VmHWM"] ?? 0) * 1024, heapBytes: Int(heap_bytes_in_use())
        )
    }

    /// The `kB` values of `names` in `/proc/self/status`.
    private static func statusFields(_ names: Set<String>) -> [String: Int] {
        guard let file = fopen("/proc/self/status", "r") else { return [:] }
        defer { fclose(file) }
        var result: [String: Int] = [:]
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" || $0 == "\n" })
            if parts.count >= 2, names.contains(String(parts[0])), let kilobytes = Int(parts[1]) {
                result[String(parts[0])] = kilobytes
            }
        }
        return result
    }
}

/// Number formatting without Foundation.
enum Format {
    /// `value` with exactly `decimals` digits after the point.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let whole = magnitude / UInt64(scale)
        let fraction = String(magnitude % UInt64(scale))
        guard decimals > 0 else { return sign + String(whole) }
        return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    /// Bytes as megabytes of 10⁶ bytes (the stricter reading of a goal in MB), two decimals.
    static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, decimals: 2) }

    /// A `Duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The median of `values` (not empty).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
