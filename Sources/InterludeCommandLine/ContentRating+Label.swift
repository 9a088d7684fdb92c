import PlayerInterface

extension ContentRating {
    /// The MPAA film ratings, the labels `--rating`, `--max-rating` and a channel file accept by
    /// name.
    package static let mpaaRatings: [ContentRating] = [.mpaaG, .mpaaPG, .mpaaPG13, .mpaaR, .mpaaNC17]

    /// A rating written on the command line or in a channel file: an MPAA label (`G`, `PG`,
    /// `PG-13`, `R`, `NC-17`, any case), or the metadata form `system|label|rank|`
    /// (`us-tv|TV-MA|600|`); `nil` for anything else.
    package init?(label text: String) {
        if let rating = Self.mpaaRatings.first(where: { $0.label.uppercased() == text.uppercased() }) {
            self = rating
        } else if text.contains("|"), let rating = ContentRating(metadataValue: text) {
            self = rating
        } else {
            return nil
        }
    }
}
