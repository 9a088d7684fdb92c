/// Parental controls before presenting an item (S3.12), with the semantics of
/// `AVPlayerViewController.requestPlaybackRestrictionsAuthorization(_:)`: the app asks explicitly
/// for authorization before it presents an item; an item whose rating the restrictions permit is
/// presented at once; above the limit, a profile that forbids such content dismisses it without a
/// prompt, and otherwise a passcode prompt decides. A denial dismisses the item, and the machine
/// does not prompt again for that item until the user asks (a later request for it, made by the
/// app on its own, is dismissed at once).
///
/// Pure; only the passcode check costs time (``PasscodeHash/matches(_:)``).
public struct ParentalControlStateMachine: Sendable {
    /// Why an item was dismissed.
    public enum Denial: Sendable, Hashable {
        /// The profile forbids content above its limit; no passcode can lift it.
        case forbiddenByProfile
        /// The user closed the passcode prompt.
        case passcodeCancelled
        /// Too many wrong passcodes.
        case tooManyAttempts
        /// Denied before, and the user has not asked again.
        case previouslyDenied
        /// An authorization request for another item replaced this one's prompt.
        case superseded
    }

    /// What the passcode prompt shows.
    public struct Prompt: Sendable, Hashable {
        /// The item waiting.
        public var itemID: String
        /// Its rating (`nil`: unrated).
        public var rating: ContentRating?
        /// Attempts left before a denial.
        public var attemptsLeft: Int
        /// Whether the last passcode entered was wrong.
        public var lastAttemptWasWrong: Bool

        /// A prompt.
        public init(itemID: String, rating: ContentRating?, attemptsLeft: Int, lastAttemptWasWrong: Bool) {
            self.itemID = itemID
            self.rating = rating
            self.attemptsLeft = attemptsLeft
            self.lastAttemptWasWrong = lastAttemptWasWrong
        }
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The app asks for authorization to present an item with this rating.
        case requestAuthorization(itemID: String, rating: ContentRating?)
        /// The user typed a passcode into the prompt.
        case passcodeEntered(String)
        /// The user closed the prompt.
        case promptCancelled
        /// The user asked, after a denial, to try again (a button on the dismissed item).
        case userRequestedAuthorization
    }

    /// What the view must do.
    public enum Action: Sendable, Hashable {
        /// Authorized: present the item.
        case present(itemID: String)
        /// Show (or update) the passcode prompt.
        case showPasscodePrompt(Prompt)
        /// Take the prompt down.
        case hidePasscodePrompt
        /// Denied: dismiss the item.
        case dismiss(itemID: String, Denial)
    }

    private enum State: Sendable, Hashable {
        case idle
        case prompting(Prompt)
        case authorized(itemID: String)
        case denied(itemID: String, rating: ContentRating?, Denial)
    }

    /// The restrictions in force.
    public let restrictions: ParentalRestrictions
    private var state: State = .idle

    /// A machine applying `restrictions`.
    public init(restrictions: ParentalRestrictions) {
        self.restrictions = restrictions
    }

    /// Whether the passcode prompt is up.
    public var isPrompting: Bool {
        if case .prompting = state { return true }
        return false
    }

    /// Handles one input.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .requestAuthorization(let itemID, let rating):
            return requestAuthorization(itemID: itemID, rating: rating)
        case .passcodeEntered(let passcode):
            guard case .prompting(var prompt) = state else { return [] }
            guard case .passcode(let hash) = restrictions.override else { return [] }
            if hash.matches(passcode) {
                state = .authorized(itemID: prompt.itemID)
                return [.hidePasscodePrompt, .present(itemID: prompt.itemID)]
            }
            prompt.attemptsLeft -= 1
            guard prompt.attemptsLeft > 0 else { return deny(prompt.itemID, prompt.rating, .tooManyAttempts, hidingPrompt: true) }
            prompt.lastAttemptWasWrong = true
            state = .prompting(prompt)
            return [.showPasscodePrompt(prompt)]
        case .promptCancelled:
            guard case .prompting(let prompt) = state else { return [] }
            return deny(prompt.itemID, prompt.rating, .passcodeCancelled, hidingPrompt: true)
        case .userRequestedAuthorization:
            guard case .denied(let itemID, let rating, _) = state else { return [] }
            return evaluate(itemID: itemID, rating: rating)
        }
    }

    private mutating func requestAuthorization(itemID: String, rating: ContentRating?) -> [Action] {
        switch state {
        case .authorized(let authorized) where authorized == itemID:
            return [.present(itemID: itemID)]
        case .denied(let denied, _, _) where denied == itemID:
            return [.dismiss(itemID: itemID, .previouslyDenied)]
        case .prompting(let prompt) where prompt.itemID == itemID:
            return []
        case .prompting(let prompt):
            state = .idle
            return [.hidePasscodePrompt, .dismiss(itemID: prompt.itemID, .superseded)] + evaluate(itemID: itemID, rating: rating)
        default:
            return evaluate(itemID: itemID, rating: rating)
        }
    }

    private mutating func evaluate(itemID: String, rating: ContentRating?) -> [Action] {
        if restrictions.permits(rating) {
            state = .authorized(itemID: itemID)
            return [.present(itemID: itemID)]
        }
        switch restrictions.override {
        case .forbidden:
            return deny(itemID, rating, .forbiddenByProfile, hidingPrompt: false)
        case .passcode:
            let prompt = Prompt(itemID: itemID, rating: rating, attemptsLeft: restrictions.maximumPasscodeAttempts, lastAttemptWasWrong: false)
            state = .prompting(prompt)
            return [.showPasscodePrompt(prompt)]
        }
    }

    private mutating func deny(_ itemID: String, _ rating: ContentRating?, _ denial: Denial, hidingPrompt: Bool) -> [Action] {
        state = .denied(itemID: itemID, rating: rating, denial)
        return (hidingPrompt ? [.hidePasscodePrompt] : []) + [.dismiss(itemID: itemID, denial)]
    }
}
