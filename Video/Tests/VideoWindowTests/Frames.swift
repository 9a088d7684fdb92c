import Foundation

/// Frames as a test compares them: downscaled to 32 × 18 grayscale (576 bytes), so that scaling
/// and a frame or two of motion count for little and a different picture for much. Both sides are
/// taken as RGB and made gray here, in one way: ffmpeg's `format=gray` would keep the video's
/// limited-range luma (16 to 235), 15 or so off a screenshot's full range everywhere.
struct GrayFrame: CustomStringConvertible {
    static let (width, height) = (32, 18)
    var pixels: [UInt8]

    /// The mean absolute difference from `other`, 0 (the same) to 255, over all rows but the
    /// last `ignoredBottomRows` (where something covers the video: the controls in full screen).
    func difference(from other: GrayFrame, ignoredBottomRows: Int = 0) -> Double {
        let count = (Self.height - ignoredBottomRows) * Self.width
        guard pixels.count == other.pixels.count, pixels.count >= count, count > 0 else { return 255 }
        return Double(zip(pixels.prefix(count), other.pixels.prefix(count)).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(count)
    }

    var description: String { "GrayFrame(mean \(pixels.reduce(0) { $0 + Int($1) } / max(pixels.count, 1)))" }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A screenshot of X window `window` on `display` (ImageMagick's `import`).
    static func screenshot(display: String, window: UInt) throws -> GrayFrame {
        let output = try run("/usr/bin/import", ["-display", display, "-window", "0x" + String(window, radix: 16),
                                                 "-resize", "\(width)x\(height)!", "-depth", "8", "rgb:-"])
        return try frame(output, from: "import")
    }

    /// The frames ffmpeg decodes from `playlist` (a path under Fixtures/Media) from `seconds`
    /// for `duration`. The seek is on the output side: every frame is decoded and those before
    /// `seconds` dropped (an input-side `-ss` lands on the keyframe after the time in these
    /// MPEG-TS segments, up to a second off).
    static func decoded(_ playlist: String, from seconds: Double, duration: Double) throws -> [GrayFrame] {
        let output = try run("/usr/bin/ffmpeg", ["-v", "error", "-i", playlist, "-ss", String(format: "%.3f", seconds), "-t", String(format: "%.3f", duration),
                                                 "-vf", "scale=\(width):\(height):flags=area,format=rgb24", "-f", "rawvideo", "-"])
        let size = width * height * 3
        return try stride(from: 0, to: output.count - size + 1, by: size).map { try frame(Array(output[$0..<$0 + size]), from: "ffmpeg") }
    }

    /// With `VIDEO_SCREENSHOTS=DIR` in the environment, saves a PNG of `window` as DIR/NAME.png,
    /// for people to look at; otherwise does nothing.
    static func keepScreenshot(_ name: String, display: String, window: UInt) throws {
        guard let directory = ProcessInfo.processInfo.environment["VIDEO_SCREENSHOTS"] else { return }
        _ = try run("/usr/bin/import", ["-display", display, "-window", "0x" + String(window, radix: 16), "\(directory)/\(name).png"])
    }

    /// An RGB screenshot of `window` at its own size: `width` × `height` pixels of 3 bytes.
    static func rgbScreenshot(display: String, window: UInt) throws -> [UInt8] {
        try run("/usr/bin/import", ["-display", display, "-window", "0x" + String(window, radix: 16), "-depth", "8", "rgb:-"])
    }

    /// RGB bytes made gray with Rec. 601's weights.
    private static func frame(_ output: [UInt8], from tool: String) throws -> GrayFrame {
        guard output.count == width * height * 3 else { throw ToolFailure(description: "\(tool) gave \(output.count) bytes, not \(width * height * 3)") }
        let pixels = stride(from: 0, to: output.count, by: 3).map { (index: Int) -> UInt8 in
            let red = 299 * Int(output[index]), green = 587 * Int(output[index + 1]), blue = 114 * Int(output[index + 2])
            return UInt8((red + green + blue) / 1000)
        }
        return GrayFrame(pixels: pixels)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return [UInt8](data)
    }
}
