import Foundation
import Testing
import TodoMVC

@Suite struct TodoStoreTests {
    @Test("Each change applies to the visitor's own list, in order; other visitors' lists are untouched")
    func changes() throws {
        let store = TodoStore()
        _ = try store.apply(.add(title: "  Buy milk \n"), for: "ada")
        _ = try store.apply(.add(title: "Write <b>tests</b>"), for: "ada")
        _ = try store.apply(.add(title: "Not Ada's"), for: "bob")
        var list = try store.list(for: "ada")
        #expect(list.map(\.title) == ["Buy milk", "Write <b>tests</b>"])
        list = try store.apply(.setCompleted(id: list[0].id, true), for: "ada")
        #expect(list.map(\.completed) == [true, false])
        // Bob cannot change Ada's items by their ids.
        _ = try store.apply(.remove(id: list[0].id), for: "bob")
        _ = try store.apply(.rename(id: list[1].id, title: "Hijacked"), for: "bob")
        #expect(try store.list(for: "ada") == list)
        list = try store.apply(.rename(id: list[1].id, title: " Write tests "), for: "ada")
        #expect(list[1].title == "Write tests")
        list = try store.apply(.clearCompleted, for: "ada")
        #expect(list.map(\.title) == ["Write tests"])
        list = try store.apply(.setAllCompleted(true), for: "ada")
        #expect(list.allSatisfy { $0.completed })
        #expect(try store.list(for: "bob").map(\.title) == ["Not Ada's"])
    }

    @Test("A blank title adds nothing; renaming to blank removes the item")
    func blanks() throws {
        let store = TodoStore()
        #expect(try store.apply(.add(title: " \t "), for: "ada").isEmpty)
        let list = try store.apply(.add(title: "x"), for: "ada")
        #expect(try store.apply(.rename(id: list[0].id, title: "   "), for: "ada").isEmpty)
    }

    @Test("A title past the limit, or an item past a full list, is refused with its kind")
    func limits() throws {
        let store = TodoStore()
        let long = String(repeating: "a", count: TodoStore.maximumTitleLength + 1)
        #expect(throws: TodoStoreError.self) { try store.apply(.add(title: long), for: "ada") }
        do {
            _ = try store.apply(.add(title: long), for: "ada")
        } catch {
            #expect(error.kind == .tooLong)
        }
        for index in 0..<TodoStore.maximumItems { _ = try store.apply(.add(title: "\(index)"), for: "ada") }
        do {
            _ = try store.apply(.add(title: "one more"), for: "ada")
            Issue.record("a full list took one more item")
        } catch {
            #expect(error.kind == .full)
        }
        #expect(try store.list(for: "ada").count == TodoStore.maximumItems)
    }

    @Test("A list written to a data directory is there when the store is opened again")
    func outlivesTheProcess() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todos-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try TodoStore(directory: directory)
            _ = try store.apply(.add(title: "Kept"), for: "ada")
        }
        #expect(try TodoStore(directory: directory).list(for: "ada").map(\.title) == ["Kept"])
    }
}
