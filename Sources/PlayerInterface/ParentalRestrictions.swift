/// What a household allows (S3.12): a maximum rating, and what happens above it. Either a
/// passcode may override the limit for one item (a parent types it), or the profile forbids such
/// content outright and no passcode is asked for.
public struct ParentalRestrictions: Sendable, Hashable {
    /// What may lift the limit.
    public enum Override: Sendable, Hashable {
        /// A passcode, stored as a salted hash, lets one item play.
        case passcode(PasscodeHash)
        /// Nothing: content above the limit never plays on this profile.
        case forbidden
    }

    /// The highest rank allowed; `nil`: no limit.
    public var maximumRating: ContentRating?
    /// What may lift the limit.
    public var override: Override
    /// Whether an item without a rating plays freely (otherwise it counts as above the limit).
    public var allowsUnratedContent: Bool
    /// How many wrong passcodes end a prompt with a denial.
    public var maximumPasscodeAttempts: Int

    /// Restrictions; by default unrated content plays and a prompt allows three attempts.
    public init(maximumRating: ContentRating?, override: Override, allowsUnratedContent: Bool = true, maximumPasscodeAttempts: Int = 3) {
        self.maximumRating = maximumRating
        self.override = override
        self.allowsUnratedContent = allowsUnratedContent
        self.maximumPasscodeAttempts = max(1, maximumPasscodeAttempts)
    }

    /// Whether an item rated `rating` plays without asking.
    public func permits(_ rating: ContentRating?) -> Bool {
        guard let maximumRating else { return true }
        guard let rating else { return allowsUnratedContent }
        return rating.rank <= maximumRating.rank
    }
}
