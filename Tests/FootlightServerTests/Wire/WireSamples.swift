import Footlight
import FootlightJSON

@testable import FootlightServer

/// One message of each server type, with every optional member, and the nested values
/// (event options, client commands) the server writes inside them.
enum WireSamples {
    static let commands: [ClientCommand] = [
        .focus("#amount"), .scrollIntoView("#top"), .setTitle("Lot 7"), .copyToClipboard("lot-7"),
        .addClass("open", to: ".menu"), .removeClass("open", from: ".menu"), .toggleClass("open", on: ".menu"),
        .setAttribute("aria-expanded", to: "true", at: ".menu"),
        .toggleAttribute("aria-expanded", between: "true", and: "false", at: ".menu"),
        .push(["progress": 3], toHook: "upload"),
    ]

    static let allOptions = EventOptions(
        debounce: .milliseconds(300), throttle: .milliseconds(100), commitOnBlur: true, oneAtATime: true,
        recoverable: true, safeToRepeat: true, commands: [.focus("#amount")], pageOnly: true, keys: ["Enter"],
        sets: ["draft": ""])

    static let serverMessages: [ServerMessage] = [
        .joined(
            token: "token-1", resumed: true, snapshot: true, events: 3, mounts: 2, maximumMessageBytes: 65536,
            rebuilt: ["s1", nil]),
        .mount(
            .init(
                seq: 1, stage: "s1", template: "lot", document: ["bid": 1250], placement: .push, url: "/lots/7",
                events: ["amount": allOptions.json!], component: nil)),
        .mount(
            .init(
                seq: 2, stage: "s2", template: "card", document: [:], placement: .root, url: nil, events: [:],
                component: ComponentPlacement(parent: "s1", host: ComponentHost(name: "cards", row: "lot-7")))),
        .unmount(seq: 3, stage: "s2"),
        .open(seq: 4, url: "https://example.com/"),
        .run(seq: 5, stage: "s1", commands: commands),
        .patch(seq: 6, stage: "s1", patch: JSONPatch([.replace(path: try! JSONPointer("/bid"), value: 1300)]), ack: 2),
        .ack(number: 4),
        .error(ProtocolError(.rateLimited, "slow down", eventNumber: 9, firstEventNumber: 7)),
        .pong,
        .bye(reason: "shutting down"),
    ]
}
