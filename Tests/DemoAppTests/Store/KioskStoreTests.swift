import Dispatch
import Footlight
import Foundation
import GRDB
import Testing

@testable import DemoApp

/// The kiosk's database in a real file: what a restart finds, and what a bad data
/// directory says.
@Suite struct KioskStoreTests {
    /// A fresh directory under the system's temporary folder, removed when it is released.
    final class DataDirectory {
        let path: String
        init() {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-store-\(UUID())").path
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// The kiosk's database file here, migrated up to `version` only: what an older
        /// server left.
        func olderDatabase(upTo version: String) throws -> DatabaseQueue {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let older = try DatabaseQueue(path: path + "/" + KioskDatabase.fileName)
            try KioskDatabase.migrator.migrate(older, upTo: version)
            return older
        }
    }

    @Test("An account survives reopening the database; the password is kept as a salted scrypt hash")
    func accountsSurvive() throws {
        let directory = DataDirectory()
        do {
            let accounts = AccountDirectory(database: try KioskDatabase(directory: directory.path), cost: .minimal)
            _ = try accounts.signUp(email: "Grace@Example.com", password: "hopper-1906").get()
        }
        let reopened = try KioskDatabase(directory: directory.path)
        let accounts = AccountDirectory(database: reopened, cost: .minimal)
        let grace = try accounts.signIn(email: "grace@example.com", password: "hopper-1906").get()
        #expect(grace.email == "Grace@example.com", "kept as signed up (the domain lower-cased)")
        #expect(accounts.signIn(email: "grace@example.com", password: "hopper-1907") == .failure(.wrongCredentials))
        #expect(accounts.signUp(email: "grace@example.com", password: "again") == .failure(.taken))
        // The seeded accounts are there once, not added again on reopening.
        #expect(accounts.count == 3)
        let stored = try String(contentsOfFile: reopened.location, encoding: .isoLatin1)
        #expect(!stored.contains("hopper-1906"), "no plain-text password in the file")
        #expect(stored.contains("scrypt$"))
    }

    @Test("Two hashes of one password differ (salted); a stored hash checks only its password")
    func hashes() throws {
        let one = try PasswordHash(hashing: "same password", cost: .minimal)
        let two = try PasswordHash(hashing: "same password", cost: .minimal)
        #expect(one.encoded != two.encoded)
        let read = try #require(PasswordHash(encoded: one.encoded))
        #expect(read.matches("same password"))
        #expect(!read.matches("same passwore"))
        #expect(!read.matches(""))
        for garbage in [
            "", "scrypt$", "bcrypt$2$8$1$AAAA$AAAA", "scrypt$3$8$1$AAAA$" + one.encoded.split(separator: "$")[5],
        ] {
            #expect(PasswordHash(encoded: garbage) == nil, "\(garbage)")
        }
    }

    @Test("Bids survive reopening: the lots come back with their bids, closing times and sequence")
    func bidsSurvive() throws {
        let directory = DataDirectory()
        let lots = AuctionCatalogue.lots()
        var before: [Lot] = []
        do {
            let service = try AuctionService(
                lots: lots, clock: ManualAuctionClock(), database: try KioskDatabase(directory: directory.path))
            for (index, lot) in lots.prefix(3).enumerated() {
                for bidder in ["ada", "grace", "alan"].prefix(index + 1) {
                    let minimum = try #require(service.lot(lot.id)).minimumNextBidCents
                    _ = try service.placeBid(lotID: lot.id, amountCents: minimum, bidder: bidder).get()
                }
            }
            before = service.lots
        }
        let service = try AuctionService(
            lots: lots, clock: ManualAuctionClock(), database: try KioskDatabase(directory: directory.path))
        for (old, new) in zip(before, service.lots) {
            #expect(new.bidCount == old.bidCount && new.currentBidCents == old.currentBidCents)
            #expect(new.highestBidder == old.highestBidder)
            // Closing times are kept as wall-clock times: within a second of before.
            #expect(abs((new.closesAt - old.closesAt).seconds) < 1)
        }
        #expect(service.bids(onLot: "lot-3").map(\.bidder) == ["ada", "grace", "alan"])
        let next = try service.placeBid(lotID: "lot-1", amountCents: 1_000_000, bidder: "ada").get()
        #expect(next.sequence == 7, "sequence numbers go on from the database")
    }

    @Test("Eight threads racing on one lot in a file: none lost, none doubled, the same after reopening")
    func racingInAFile() throws {
        let directory = DataDirectory()
        let lot = AuctionCatalogue.lots()[0]
        let service = try AuctionService(
            lots: [lot], clock: ManualAuctionClock(), database: try KioskDatabase(directory: directory.path))
        let accepted = Locked<[Bid]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<40 {
                let minimum = service.lot(lot.id)?.minimumNextBidCents ?? 0
                if case .success(let bid) = service.placeBid(lotID: lot.id, amountCents: minimum, bidder: "t\(thread)")
                {
                    accepted.withLock { $0.append(bid) }
                }
            }
        }
        let history = service.bids(onLot: lot.id)
        #expect(history.count == accepted.withLock { $0.count })
        #expect(Set(history.map(\.sequence)).count == history.count)
        for (earlier, later) in zip(history, history.dropFirst()) {
            #expect(later.amountCents >= earlier.amountCents + Lot.minimumIncrement(above: earlier.amountCents))
        }
        let reopened = try AuctionService(
            lots: [lot], clock: ManualAuctionClock(), database: try KioskDatabase(directory: directory.path))
        let summary = { (bid: Bid) in "\(bid.sequence) \(bid.bidder) \(bid.amountCents)" }
        #expect(reopened.bids(onLot: lot.id).map(summary) == history.map(summary))
        #expect(reopened.lot(lot.id)?.bidCount == history.count)
        #expect(reopened.lot(lot.id)?.currentBidCents == history.last?.amountCents)
    }

    @Test("A closed lot is listed again after the delay, with no bids; its earlier bids stay recorded")
    func relisting() throws {
        let directory = DataDirectory()
        let clock = ManualAuctionClock()
        let lot = AuctionCatalogue.lots()[0]
        let service = try AuctionService(
            lots: [lot], clock: clock, database: try KioskDatabase(directory: directory.path),
            relistAfter: .seconds(60))
        _ = try service.placeBid(lotID: lot.id, amountCents: lot.startingPriceCents, bidder: "ada").get()
        clock.advance(by: lot.closesAt)
        #expect(service.lot(lot.id)?.isClosed == true)
        clock.advance(by: .seconds(59))
        #expect(service.lot(lot.id)?.isClosed == true)
        clock.advance(by: .seconds(1))
        let relisted = try #require(service.lot(lot.id))
        #expect(!relisted.isClosed && relisted.bidCount == 0)
        #expect(relisted.closesAt == clock.now + lot.closesAt)
        #expect(service.bids(onLot: lot.id).isEmpty)
        #expect(service.bids(by: "ada").count == 1)
        let reopened = try AuctionService(
            lots: [lot], clock: ManualAuctionClock(), database: try KioskDatabase(directory: directory.path))
        #expect(reopened.lot(lot.id)?.isClosed == false)
        #expect(reopened.lot(lot.id)?.bidCount == 0)
    }

    @Test("A data directory that cannot be made, or a file that is not a database, is a clear error at start")
    func badDataDirectory() throws {
        let directory = DataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let plainFile = directory.path + "/not-a-directory"
        try Data("text".utf8).write(to: URL(fileURLWithPath: plainFile))
        #expect {
            try KioskDatabase(directory: plainFile + "/data")
        } throws: { error in
            "\(error)".contains("cannot create the data directory \(plainFile)/data")
        }
        let damaged = directory.path + "/damaged"
        try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: damaged + "/" + KioskDatabase.fileName))
        #expect {
            try KioskDatabase(directory: damaged)
        } throws: { error in
            "\(error)".contains("\(damaged)/\(KioskDatabase.fileName) cannot be used")
                && "\(error)".contains("not a database")
        }
    }
}

@Suite struct LedgerMigrationTests {
    @Test("Several openers of one new data directory at once (nodes of a cluster) all get a working database")
    func concurrentOpeners() throws {
        let directory = KioskStoreTests.DataDirectory()
        let path = directory.path
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let database = try KioskDatabase(directory: path)
                _ = try SQLiteAuctionLedger(database: database).records(["lot-1"])
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test("A database from before lots kept their bid counts (v2) keeps its bids: count, highest, bidder")
    func fromVersion2() throws {
        let directory = KioskStoreTests.DataDirectory()
        do {
            let old = try directory.olderDatabase(upTo: "v2: visitors' sign-ins")
            try old.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO lot (id, closesAt, listedFor, round, isClosed) VALUES ('lot-1', 2e9, 600, 2, 0), ('lot-2', 2e9, 600, 1, 1)"
                )
                for (round, amount, bidder) in [(1, 100, "ada"), (1, 200, "grace"), (2, 300, "ada"), (2, 400, "grace")]
                {
                    try db.execute(
                        sql:
                            "INSERT INTO bid (lotID, round, bidder, amountCents, placedAt) VALUES ('lot-1', ?, ?, ?, 1e9)",
                        arguments: [round, bidder, amount])
                }
            }
        }
        let records = try SQLiteAuctionLedger(database: KioskDatabase(directory: directory.path)).records([
            "lot-1", "lot-2",
        ])
        #expect(
            records["lot-1"]
                == LotRecord(
                    closesAt: 2e9, listedFor: 600, round: 2, isClosed: false, bidCount: 2, highCents: 400,
                    highBidder: "grace", version: 1))
        #expect(
            records["lot-2"]
                == LotRecord(
                    closesAt: 2e9, listedFor: 600, round: 1, isClosed: true, bidCount: 0, highCents: 0,
                    highBidder: nil, version: 1))
    }
}

@Suite struct VisitorSignInTests {
    /// A kiosk session of `request`'s visitor on `database`.
    func session(_ database: KioskDatabase, _ request: SessionRequest) -> KioskSession {
        let services = KioskServices(
            auction: AuctionService(lots: [], clock: ManualAuctionClock()),
            accounts: AccountDirectory(database: database, cost: .minimal),
            languages: VisitorLanguages(database: database))
        return KioskSession(
            services: services,
            environment: SessionEnvironment(executor: DispatchQueue(label: "session"), request: request))
    }

    @Test("A visitor's sign-in carries to their next sessions and across reopening the database; a sign-out ends it")
    func signInBelongsToTheVisitor() throws {
        let directory = KioskStoreTests.DataDirectory()
        let visitor = SessionRequest(visitor: VisitorID(rawValue: "visitor-1"))
        var database = try KioskDatabase(directory: directory.path)
        let first = session(database, visitor)
        #expect(first.account.value == nil)
        let ada = try AccountDirectory(database: database, cost: .minimal)
            .signIn(email: "ada@example.com", password: "lovelace1843").get()
        first.account.send(ada)
        #expect(session(database, visitor).account.value == ada, "a new tab")
        #expect(session(database, SessionRequest(visitor: VisitorID(rawValue: "visitor-2"))).account.value == nil)
        #expect(session(database, SessionRequest()).account.value == nil, "no visitor: nobody")
        database = try KioskDatabase(directory: directory.path)
        let afterRestart = session(database, visitor)
        #expect(afterRestart.account.value == ada)
        afterRestart.account.send(nil)
        #expect(session(database, visitor).account.value == nil)
    }

    @Test("A sign-out makes the visitor's other signed-in sessions start over, not its own nor another visitor's")
    func signOutEndsTheVisitorsOtherSessions() throws {
        let services = KioskServices(
            auction: AuctionService(lots: [], clock: ManualAuctionClock()), accounts: AccountDirectory(cost: .minimal))
        let queue = DispatchQueue(label: "sessions")
        let startedOver = Locked<[String]>([])
        func session(_ name: String, visitor: String?) -> KioskSession {
            KioskSession(
                services: services,
                environment: SessionEnvironment(
                    executor: queue, request: SessionRequest(visitor: visitor.map { VisitorID(rawValue: $0) }))
            ) { reason in startedOver.withLock { $0.append("\(name): \(reason)") } }
        }
        let (acting, otherVisitor, anonymous) = (
            session("acting", visitor: "v1"), session("v2", visitor: "v2"), session("anonymous", visitor: nil)
        )
        // Opened before the sign-in, and never signed in since (a form half typed, say).
        let signedOutTab = session("signed-out tab", visitor: "v1")
        let ada = try services.accounts.signIn(email: "ada@example.com", password: "lovelace1843").get()
        queue.sync {
            acting.account.send(ada)
            otherVisitor.account.send(ada)
        }
        queue.sync {}
        let otherTab = session("other tab", visitor: "v1")
        #expect(otherTab.account.value == ada)
        #expect(startedOver.withLock { $0 }.isEmpty, "a sign-in ends nothing")
        queue.sync { acting.account.send(nil) }
        queue.sync {}
        #expect(startedOver.withLock { $0 } == ["other tab: signed out in another tab"])
        #expect(services.accounts.account(signedInBy: VisitorID(rawValue: "v2")) == ada)
        withExtendedLifetime((otherTab, anonymous, signedOutTab)) {}
    }

    @Test("A visitor's language carries to their next sessions, over what the browser asks for, and across reopening")
    func languageBelongsToTheVisitor() throws {
        let directory = KioskStoreTests.DataDirectory()
        let german = ["accept-language": "de-DE,de;q=0.9"]
        let visitor = SessionRequest(visitor: VisitorID(rawValue: "visitor-1"), headers: german)
        var database = try KioskDatabase(directory: directory.path)
        let first = session(database, visitor)
        #expect(first.language.value == .german, "the browser's language at first")
        first.language.send(.english)
        #expect(session(database, visitor).language.value == .english, "a reload, a new tab")
        let other = SessionRequest(visitor: VisitorID(rawValue: "visitor-2"), headers: german)
        #expect(session(database, other).language.value == .german, "another visitor's browser decides for them")
        #expect(session(database, SessionRequest(headers: german)).language.value == .german, "no visitor: the browser")
        database = try KioskDatabase(directory: directory.path)
        let afterRestart = session(database, visitor)
        #expect(afterRestart.language.value == .english)
        afterRestart.language.send(.german)
        #expect(session(database, visitor).language.value == .german)
    }

    @Test("Remembered languages are bounded: past the limit the oldest choices are forgotten")
    func boundedLanguages() {
        let languages = VisitorLanguages(capacity: 3)
        for index in 0..<5 { languages.remember(.german, for: VisitorID(rawValue: "v\(index)")) }
        #expect(languages.count == 3)
        #expect(languages.language(of: VisitorID(rawValue: "v0")) == nil)
        #expect(languages.language(of: VisitorID(rawValue: "v4")) == .german)
    }

    @Test("Remembered sign-ins are bounded: past the limit the oldest are forgotten")
    func boundedSignIns() throws {
        let accounts = AccountDirectory(capacity: 2, cost: .minimal)
        let ada = try accounts.signIn(email: "ada@example.com", password: "lovelace1843").get()
        for index in 0..<(accounts.signInCapacity + 3) {
            accounts.remember(ada, signedInBy: VisitorID(rawValue: "v\(index)"))
        }
        #expect(accounts.account(signedInBy: VisitorID(rawValue: "v0")) == nil)
        #expect(accounts.account(signedInBy: VisitorID(rawValue: "v\(accounts.signInCapacity + 2)")) == ada)
    }

    /// The row count the triggers keep for `table`, and the rows it holds.
    static func rowCounts(_ table: String, in database: KioskDatabase) throws -> (kept: Int?, counted: Int?) {
        try database.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT rows FROM rowCount WHERE tableName = ?", arguments: [table]),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")
            )
        }
    }

    @Test("The tables kept to a size count their rows exactly through new rows, repeats, sign-outs and trims")
    func rowCountsStayExact() throws {
        let database = KioskDatabase()
        let languages = VisitorLanguages(database: database, capacity: 4)
        let accounts = AccountDirectory(database: database, capacity: 1, cost: .minimal)
        let ada = try accounts.signIn(email: "ada@example.com", password: "lovelace1843").get()
        let visitors = (0..<7).map { VisitorID(rawValue: "v\($0)") }
        for (index, visitor) in visitors.enumerated() {
            languages.remember(index.isMultiple(of: 2) ? KioskLanguage.german : .english, for: visitor)
            languages.remember(.german, for: visitors[0])  // a repeat: no new row, and the newest
            accounts.remember(ada, signedInBy: visitor)
        }
        accounts.forget(visitors[6])
        accounts.forget(VisitorID(rawValue: "never-signed-in"))
        #expect(try Self.rowCounts("visitorLanguage", in: database) == (4, 4))
        #expect(try Self.rowCounts("signIn", in: database) == (3, 3), "4 kept, then one signed out")
        // The newest by choice stay: v0 chose again last of all.
        #expect(languages.language(of: visitors[0]) == .german)
        #expect(languages.language(of: visitors[6]) == .german)
        #expect(languages.language(of: visitors[4]) == .german)
        #expect(languages.language(of: visitors[5]) == .english)
        #expect(languages.language(of: visitors[1]) == nil)
        #expect(languages.language(of: visitors[3]) == nil)
        #expect(accounts.account(signedInBy: visitors[2]) == nil)
        #expect(accounts.account(signedInBy: visitors[3]) == ada)
        #expect(accounts.account(signedInBy: visitors[6]) == nil)
    }

    @Test("A database from before the row counts gets them counted when it is opened")
    func rowCountsOfAnOlderDatabase() throws {
        let directory = KioskStoreTests.DataDirectory()
        do {
            let older = try directory.olderDatabase(upTo: "v5: accounts' pictures")
            try older.write { db in
                for index in 0..<5 {
                    try db.execute(
                        sql: "INSERT INTO visitorLanguage (visitor, language, chosenAt) VALUES (?, 'de', ?)",
                        arguments: ["v\(index)", Double(index)])
                }
            }
        }
        let database = try KioskDatabase(directory: directory.path)
        #expect(try Self.rowCounts("visitorLanguage", in: database) == (5, 5))
        #expect(try Self.rowCounts("signIn", in: database) == (0, 0))
        let languages = VisitorLanguages(database: database, capacity: 5)
        languages.remember(.english, for: VisitorID(rawValue: "v5"))
        #expect(languages.count == 5)
        #expect(languages.language(of: VisitorID(rawValue: "v0")) == nil, "the oldest went for the new one")
    }

    @Test("The signing key is made once, kept readable by its owner only, and a damaged one is a clear error")
    func signingKey() throws {
        let directory = KioskStoreTests.DataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let key = try SigningKey.load(in: directory.path)
        #expect(key.count == 32)
        #expect(try SigningKey.load(in: directory.path) == key)
        let path = directory.path + "/" + SigningKey.fileName
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        try Data("short".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try SigningKey.load(in: directory.path)
        } throws: { error in
            "\(error)".contains("not a 32-byte key")
        }
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
