import HLSPlaylist
import MediaTime

/// The libFuzzer entry point: parses `data` leniently and strictly and checks the parser's
/// invariants, trapping (with a message saying which invariant) when one does not hold. Any trap in
/// the library itself (an arithmetic overflow, an out-of-range index) is a finding too.
///
/// Invariants:
/// 1. Losslessness: an unedited parsed playlist serializes to exactly the input bytes.
/// 2. Mode agreement: when the strict parse succeeds, the lenient parse of the same bytes gives an
///    equal playlist and no diagnostics (strict mode throws at every problem lenient mode records).
/// 3. Canonical round trip: when the input is clean (see ``isCanonicallyRepresentable``), the
///    canonical text of the strictly parsed playlist parses strictly to an equal playlist, and
///    writing that one canonically gives the same text again.
///
/// Derived views (consolidated date ranges, program date-times, duration, segment start times,
/// delta-update expansion) are computed for their side effects only: they must not trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lenient = try? PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient))
    let strict = try? PlaylistParser.parse(bytes, options: ParseOptions(mode: .strict))

    for result in [lenient, strict].compactMap({ $0 }) {
        checkLossless(result.playlist, bytes)
        exercise(result.playlist)
    }

    if let strict {
        guard let lenient else { fatalError("mode agreement: the strict parse succeeded but the lenient parse threw") }
        if !lenient.diagnostics.isEmpty {
            fatalError("mode agreement: the strict parse succeeded but the lenient parse reported \(lenient.diagnostics)")
        }
        if lenient.playlist != strict.playlist {
            fatalError("mode agreement: the lenient and strict parses produced different playlists")
        }
        if isCanonicallyRepresentable(bytes, strict) {
            checkCanonicalRoundTrip(strict.playlist)
        }
    }
    return 0
}

/// Invariant 1: `serialized()` returns the input, byte for byte.
private func checkLossless(_ playlist: Playlist, _ bytes: [UInt8]) {
    guard playlist.serialized() == bytes else {
        fatalError("losslessness: serialized() differs from the \(bytes.count) input bytes")
    }
    switch playlist {
    case .media(let media):
        guard media.serialized() == bytes else { fatalError("losslessness: MediaPlaylist.serialized() differs from the input") }
    case .multivariant(let multivariant):
        guard multivariant.serialized() == bytes else {
            fatalError("losslessness: MultivariantPlaylist.serialized() differs from the input")
        }
    }
}

/// Computes every derived view; each must return rather than trap, whatever the playlist says.
private func exercise(_ playlist: Playlist) {
    switch playlist {
    case .media(let media):
        blackHole(media.consolidatedDateRanges.count)
        blackHole(media.programDateTimes().count)
        blackHole(media.duration)
        blackHole(media.segmentStartTimes.count)
        blackHole(media.discontinuitySequenceNumbers.count)
        blackHole(media.canonicalText().utf8.count)
        if media.isDeltaUpdate {
            // A delta update applied to itself: the skipped sequence numbers may or may not be
            // held, so it may throw, but it must not trap.
            blackHole((try? media.applying(deltaUpdate: media))?.segments.count)
        }
    case .multivariant(let multivariant):
        blackHole(multivariant.canonicalText().utf8.count)
    }
}

/// Whether the canonical form can represent everything the strict parse kept, so the round trip
/// must hold. Two cases are left out, both because the model stores what the canonical text
/// cannot write back unchanged, not because the parser or serializer is wrong:
///
/// - A control character other than a CR directly before an LF (§4.1 forbids them; the parser keeps
///   them verbatim). A CR that ends a value, as in `title\r\r\n`, is kept in the model, but the
///   canonical text puts a bare LF after it, so the re-parse strips it as a line terminator.
/// - A variable whose value contains `{$`. The model keeps values after substitution (§4.3), so the
///   canonical text writes the substituted text, and the re-parse would substitute it again.
private func isCanonicallyRepresentable(_ bytes: [UInt8], _ result: ParseResult) -> Bool {
    for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F {
        if byte == 0x0A { continue }
        if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { continue }
        return false
    }
    return !result.variables.values.contains { $0.contains("{$") }
}

/// Invariant 3: canonical text → strict parse → the same playlist → the same canonical text.
private func checkCanonicalRoundTrip(_ playlist: Playlist) {
    let text = canonicalText(playlist)
    let reparsed: ParseResult
    do {
        reparsed = try PlaylistParser.parse(Array(text.utf8), options: ParseOptions(mode: .strict))
    } catch {
        fatalError("serializer invariant: the canonical text does not parse strictly: \(error)\n--- canonical text:\n\(text)")
    }
    guard reparsed.playlist == playlist else {
        fatalError(
            "serializer invariant: the canonical text parses to a different playlist\n--- canonical text:\n\(text)"
                + "\n--- canonical text of the re-parsed playlist:\n\(canonicalText(reparsed.playlist))"
        )
    }
    guard canonicalText(reparsed.playlist) == text else {
        fatalError("serializer invariant: the canonical text is not a fixed point\n--- canonical text:\n\(text)")
    }
}

private func canonicalText(_ playlist: Playlist) -> String {
    switch playlist {
    case .media(let media): return media.canonicalText()
    case .multivariant(let multivariant): return multivariant.canonicalText()
    }
}

/// Keeps a computed value alive so the optimizer cannot drop the computation.
@inline(never)
private func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
