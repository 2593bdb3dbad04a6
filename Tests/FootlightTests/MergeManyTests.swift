import Footlight
import Testing

@Suite struct MergeManyTests {
    @Test("MergeMany over an array and of many, and merge(with:) of three and four, emit each value as it comes")
    func mergeMany() {
        let subjects = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
        var fromArray: [Int] = []
        var fromList: [Int] = []
        var ofThree: [Int] = []
        var ofFour: [Int] = []
        var finished = false
        let subscriptions = [
            Publishers.MergeMany(subjects).sink(receiveCompletion: { _ in finished = true }) { fromArray.append($0) },
            Publishers.MergeMany(subjects[0], subjects[1]).merge(with: subjects[4]).sink { fromList.append($0) },
            subjects[0].merge(with: subjects[1], subjects[2]).sink { ofThree.append($0) },
            subjects[0].merge(with: subjects[1], subjects[2], subjects[3]).sink { ofFour.append($0) },
        ]
        for (index, value) in [(2, 20), (0, 0), (4, 40), (3, 30), (1, 10), (2, 21)] { subjects[index].send(value) }
        #expect(fromArray == [20, 0, 40, 30, 10, 21])
        #expect(fromList == [0, 40, 10])
        #expect(ofThree == [20, 0, 10, 21])
        #expect(ofFour == [20, 0, 30, 10, 21])
        for subject in subjects.dropLast() { subject.send(completion: .finished) }
        #expect(!finished, "not before all have finished")
        subjects[4].send(completion: .finished)
        #expect(finished)
        for subscription in subscriptions { subscription.cancel() }
    }

    @Test("combineLatest of four waits for all four, then emits each change with the others' latest")
    func combineLatestOfFour() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let c = PassthroughSubject<Bool, Never>()
        let d = PassthroughSubject<Double, Never>()
        var received: [String] = []
        var tuples = 0
        let subscriptions = [
            a.combineLatest(b, c, d) { "\($0)\($1)\($2)\($3)" }.sink { received.append($0) },
            a.combineLatest(b, c, d).sink { _ in tuples += 1 },
        ]
        a.send(1)
        b.send("x")
        c.send(true)
        #expect(received.isEmpty)
        d.send(0.5)
        a.send(2)
        d.send(1.5)
        #expect(received == ["1xtrue0.5", "2xtrue0.5", "2xtrue1.5"])
        #expect(tuples == 3)
        for subscription in subscriptions { subscription.cancel() }
    }
}
