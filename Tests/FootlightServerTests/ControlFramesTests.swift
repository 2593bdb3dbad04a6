import Testing

@testable import FootlightServer

/// The close handshake and the liveness ping of a connection, as a value: what it says
/// to write for what happened, with no socket and no clock.
@Suite struct ControlFramesTests {
    private let opened = ContinuousClock.now
    private let bye = ControlFrames.CloseRequest(code: 1001, reason: "server shutting down")

    @Test("A ping goes out ahead of the queued frames, once until the peer is heard from")
    func pingOnce() {
        var control = ControlFrames(openedAt: opened)
        let idle = control.writeable(hasFrames: false)
        #expect(idle == .nothing)
        let silent = opened + .seconds(20)
        let pinging = control.pingIfNotPinged(at: silent)
        #expect(pinging)
        #expect(control.pingAskedAt == silent)
        let again = control.pingIfNotPinged(at: silent + .seconds(1))
        #expect(!again, "one is due already")
        let first = control.writeable(hasFrames: true)
        let second = control.writeable(hasFrames: true)
        #expect([first, second] == [.ping, .frame])
        let unanswered = control.pingIfNotPinged(at: silent + .seconds(2))
        #expect(!unanswered, "one went out; no answer yet")
        let answered = silent + .seconds(3)
        control.heard(at: answered)
        #expect(control.lastHeard == answered)
        #expect(control.pingAskedAt == nil)
        let next = control.pingIfNotPinged(at: answered + .seconds(20))
        #expect(next, "heard from: the next silence gets a ping")
    }

    @Test("A close is written after the queued frames, once, and the first close asked for stands")
    func closeAfterFrames() {
        var control = ControlFrames(openedAt: opened)
        control.requestClose(bye, at: opened + .seconds(1))
        control.requestClose(.init(code: 1000, reason: "later"), at: opened + .seconds(2))
        #expect(control.isClosing)
        let queued = control.writeable(hasFrames: true)
        let close = control.writeable(hasFrames: false)
        #expect([queued, close] == [.frame, .close(bye)])
        #expect(!control.closeFrameSent, "not until it is written whole")
        control.closeFrameWritten()
        #expect(control.closeFrameSent)
        let after = control.writeable(hasFrames: false)
        #expect(after == .nothing, "then only the peer's close is awaited")
    }

    @Test("A closing connection gets no ping: its close stands for one, from when it was asked")
    func closeStandsForPing() {
        var control = ControlFrames(openedAt: opened)
        let asked = opened + .seconds(5)
        control.requestClose(bye, at: asked)
        #expect(control.pingAskedAt == asked)
        let pinging = control.pingIfNotPinged(at: asked + .seconds(20))
        #expect(!pinging)
        let heard = asked + .seconds(1)
        control.heard(at: heard)
        #expect(control.pingAskedAt == heard, "heard from while closing: the close's clock starts again")
    }

    @Test("A ping due when a close is asked for is not written; the close is")
    func closeOvertakesDuePing() {
        var control = ControlFrames(openedAt: opened)
        let silent = opened + .seconds(20)
        let pinging = control.pingIfNotPinged(at: silent)
        #expect(pinging)
        control.requestClose(bye, at: silent + .seconds(1))
        #expect(control.pingAskedAt == silent, "the ping's time stands")
        let write = control.writeable(hasFrames: false)
        #expect(write == .close(bye))
    }
}
