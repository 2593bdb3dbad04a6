import FootlightJSON

/// A stage's address as state (the GettingStarted article, "Addresses"): the page's
/// address bar follows a Director output, and Back, Forward and links come back as an
/// input, while the stage stays.
extension Stage {
    /// The event a page sends when the visitor goes to another address of the stage
    /// (Back, Forward, a link): its value is the address's path and query.
    public static let addressEvent = "@address"

    /// Shows each address of `output` in the page's address bar while the stage is on top
    /// (a root when nothing is pushed over it): a new History entry, or the current one
    /// replaced when the address ``Address/replaces``. The stage is not mounted again.
    /// An address the output gives before the stage is shown is the one it is shown at
    /// (it wins over the `url` given to ``Context/push(_:url:)``).
    public func bindAddress<Output: Publisher>(_ output: Output)
    where Output.Output == Address, Output.Failure == Never {
        subscriptions.append(
            output.sink { [weak self] address in
                guard let self, address.url != self.address?.url else { return }
                self.address = address
                self.host?.stageChanged()
            })
    }

    /// Sends into `input` each address the visitor goes to in this stage: Back or Forward
    /// to one of its History entries, and the address the page showed when a rebuilt
    /// session shows the stage again. The Director answers with its output
    /// (``bindAddress(_:)``): the same address, or the one it shows instead (replacing).
    public func onAddress<Input: Subject>(send input: Input) where Input.Output == Address {
        on(Self.addressEvent, send: input)
    }

    /// Whether the stage takes addresses (``onAddress(send:)``).
    package var takesAddresses: Bool { handlers[Self.addressEvent] != nil }
}
