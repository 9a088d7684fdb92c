extension Duration {
    /// `self × numerator / denominator`, truncated toward zero exactly as `*` then `/` by integers
    /// are, on the attosecond count: those operators are generic over the integer type and cost
    /// hundreds of instructions, and channels and clocks scale durations at every frame.
    @inlinable package func scaled(_ numerator: Int128, _ denominator: Int128) -> Duration {
        Duration(attoseconds: attoseconds * numerator / denominator)
    }
}
