import PlayerInterface
import Testing

/// Parental controls (S3.12): the rating checked before presenting, a passcode that may override,
/// a profile that forbids, dismissal on denial, no second prompt without the user asking.
@Suite("ParentalControlStateMachine")
struct ParentalControlStateMachineTests {
    typealias Machine = ParentalControlStateMachine

    /// "1234", hashed with few iterations so that the tests stay fast.
    static let passcode = PasscodeHash(passcode: "1234", salt: Array(0..<16), iterations: 1000)
    static let withPasscode = ParentalRestrictions(maximumRating: .mpaaPG13, override: .passcode(passcode))
    static let forbidding = ParentalRestrictions(maximumRating: .mpaaPG13, override: .forbidden)

    static func prompt(_ itemID: String, _ rating: ContentRating?, attemptsLeft: Int = 3, wrong: Bool = false) -> Machine.Action {
        .showPasscodePrompt(.init(itemID: itemID, rating: rating, attemptsLeft: attemptsLeft, lastAttemptWasWrong: wrong))
    }

    @Test("the rating read from the item's metadata value orders by rank")
    func rating() throws {
        let rating = try #require(ContentRating(metadataValue: "mpaa|PG-13|300|"))
        #expect(rating == .mpaaPG13)
        #expect(rating.metadataValue == "mpaa|PG-13|300|")
        #expect(ContentRating(metadataValue: "us-tv|TV-MA|600") == ContentRating(system: "us-tv", label: "TV-MA", rank: 600))
        #expect(ContentRating(metadataValue: "mpaa|R|x|") == nil)
        #expect(ContentRating(metadataValue: "mpaa||400|") == nil)
        #expect(ContentRating(metadataValue: "R") == nil)
        #expect(Self.withPasscode.permits(.mpaaPG))
        #expect(Self.withPasscode.permits(.mpaaPG13))
        #expect(!Self.withPasscode.permits(.mpaaR))
    }

    @Test("an item within the limit is presented at once, without a prompt")
    func withinLimit() {
        var machine = Machine(restrictions: Self.withPasscode)
        #expect(machine.handle(.requestAuthorization(itemID: "cartoon", rating: .mpaaG)) == [.present(itemID: "cartoon")])
        #expect(!machine.isPrompting)
    }

    @Test("above the limit the passcode prompt decides: a wrong passcode is said so, the right one presents the item")
    func passcodeOverrides() {
        var machine = Machine(restrictions: Self.withPasscode)
        #expect(machine.handle(.requestAuthorization(itemID: "thriller", rating: .mpaaR)) == [Self.prompt("thriller", .mpaaR)])
        #expect(machine.handle(.passcodeEntered("0000")) == [Self.prompt("thriller", .mpaaR, attemptsLeft: 2, wrong: true)])
        #expect(machine.handle(.passcodeEntered("1234")) == [.hidePasscodePrompt, .present(itemID: "thriller")])
        #expect(machine.handle(.requestAuthorization(itemID: "thriller", rating: .mpaaR)) == [.present(itemID: "thriller")],
                "authorized once: presenting it again does not ask again")
    }

    @Test("a profile that forbids dismisses the item without a prompt, and asking again cannot lift it")
    func profileForbids() {
        var machine = Machine(restrictions: Self.forbidding)
        #expect(machine.handle(.requestAuthorization(itemID: "thriller", rating: .mpaaR)) == [.dismiss(itemID: "thriller", .forbiddenByProfile)])
        #expect(machine.handle(.passcodeEntered("1234")) == [], "no prompt, nothing to type into")
        #expect(machine.handle(.userRequestedAuthorization) == [.dismiss(itemID: "thriller", .forbiddenByProfile)])
    }

    @Test("a denial dismisses the item; the app asking again gets a dismissal, not a second prompt; the user asking gets a prompt")
    func noSecondPrompt() {
        var machine = Machine(restrictions: Self.withPasscode)
        _ = machine.handle(.requestAuthorization(itemID: "thriller", rating: .mpaaR))
        #expect(machine.handle(.promptCancelled) == [.hidePasscodePrompt, .dismiss(itemID: "thriller", .passcodeCancelled)])
        #expect(machine.handle(.requestAuthorization(itemID: "thriller", rating: .mpaaR)) == [.dismiss(itemID: "thriller", .previouslyDenied)])
        #expect(!machine.isPrompting)
        #expect(machine.handle(.userRequestedAuthorization) == [Self.prompt("thriller", .mpaaR)])
        #expect(machine.handle(.passcodeEntered("1234")) == [.hidePasscodePrompt, .present(itemID: "thriller")])
    }

    @Test("too many wrong passcodes deny and dismiss")
    func tooManyAttempts() {
        var machine = Machine(restrictions: ParentalRestrictions(maximumRating: .mpaaPG, override: .passcode(Self.passcode), maximumPasscodeAttempts: 2))
        _ = machine.handle(.requestAuthorization(itemID: "drama", rating: .mpaaPG13))
        _ = machine.handle(.passcodeEntered("1111"))
        #expect(machine.handle(.passcodeEntered("2222")) == [.hidePasscodePrompt, .dismiss(itemID: "drama", .tooManyAttempts)])
        #expect(machine.handle(.passcodeEntered("1234")) == [], "the prompt is gone")
    }

    @Test("unrated content plays unless the restrictions say otherwise")
    func unrated() {
        var allowing = Machine(restrictions: Self.withPasscode)
        #expect(allowing.handle(.requestAuthorization(itemID: "home", rating: nil)) == [.present(itemID: "home")])
        var strict = Machine(restrictions: ParentalRestrictions(maximumRating: .mpaaPG13, override: .forbidden, allowsUnratedContent: false))
        #expect(strict.handle(.requestAuthorization(itemID: "home", rating: nil)) == [.dismiss(itemID: "home", .forbiddenByProfile)])
    }

    @Test("a request for another item while prompting dismisses the first as superseded and evaluates the second")
    func superseded() {
        var machine = Machine(restrictions: Self.withPasscode)
        _ = machine.handle(.requestAuthorization(itemID: "thriller", rating: .mpaaR))
        #expect(machine.handle(.requestAuthorization(itemID: "cartoon", rating: .mpaaG)) == [
            .hidePasscodePrompt, .dismiss(itemID: "thriller", .superseded), .present(itemID: "cartoon"),
        ])
    }
}
