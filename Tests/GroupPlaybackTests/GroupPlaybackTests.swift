import GroupPlayback
import Testing

@Suite struct GroupPlaybackModuleTests {
    @Test func moduleLinks() {
        #expect(String(describing: GroupPlayback.self) == "GroupPlayback")
    }
}
