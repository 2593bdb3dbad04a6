import Testing

extension SceneTester {
    /// How much of what the page received a test must assert (TCA's `exhaustivity`).
    public enum Exhaustivity: Equatable, Sendable {
        /// Every change and command must be asserted before the next step and by
        /// ``SceneTester/finish(allowingTimers:sourceLocation:)``; the default.
        case on
        /// Only what is asserted is checked: unasserted changes and commands are skipped
        /// at the next step, ``SceneTester/expectCommands(_:sourceLocation:)`` looks for
        /// its commands among those issued, and `finish` checks timers only when asked
        /// (`allowingTimers: false`) and protocol violations always. With
        /// `showSkippedAssertions`, each skip is recorded as a known issue, so the test
        /// passes and its output still shows what was skipped.
        case off(showSkippedAssertions: Bool = false)

        var isOn: Bool { self == .on }
    }

    /// Whether every change and command must be asserted (``Exhaustivity/on``, the
    /// default) or only those asserted are checked (``Exhaustivity/off(showSkippedAssertions:)``),
    /// for a test about one part of a busy scene:
    ///
    /// ```swift
    /// let tester = SceneTester(TallyScene())
    /// tester.exhaustivity = .off
    /// tester.send("both", to: "tally")       // changes the count and the label
    /// tester.expect("tally", ["count": 1])   // the label is not asserted: skipped
    /// tester.finish()
    /// ```
    public var exhaustivity: Exhaustivity {
        get { run { exhaustivityMode } }
        set { run { exhaustivityMode = newValue } }
    }

    /// What a non-exhaustive tester skipped (changes and commands never asserted), oldest
    /// first, as an exhaustive one would have failed them.
    public var skipped: [String] { run { skippedAssertions } }

    /// Notes an assertion skipped by a non-exhaustive tester, and shows it if asked.
    func reportSkipped(_ what: String, _ mode: Exhaustivity, _ sourceLocation: SourceLocation) {
        run { skippedAssertions.append(what) }
        guard mode == .off(showSkippedAssertions: true) else { return }
        withKnownIssue("skipped by a non-exhaustive SceneTester") {
            Issue.record(Comment(rawValue: what), sourceLocation: sourceLocation)
        }
    }
}

extension SceneTester.Exhaustivity {
    /// Only what is asserted is checked; skips are not shown.
    public static var off: Self { .off(showSkippedAssertions: false) }
}
