import MediaTime

extension MediaTimeRange {
    /// Whether `time` is in `[start, end)`.
    func holdsInside(_ time: MediaTime) -> Bool {
        !(time < start) && time < end
    }
}

extension MediaTime {
    /// The same value written the same way (same units and timescale), not only the same instant:
    /// what is taken from an earlier result must print as a new one would.
    func isIdentical(to other: MediaTime) -> Bool {
        self == other && value == other.value && timescale == other.timescale
    }
}
