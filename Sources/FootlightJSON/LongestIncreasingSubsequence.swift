/// Longest strictly increasing subsequence, by patience sorting in O(n log n).
package enum LongestIncreasingSubsequence {
    /// The values of `sequence` that form one longest strictly increasing subsequence.
    package static func members(of sequence: [Int]) -> Set<Int> {
        // tails[k]: index in `sequence` of the smallest tail of an increasing run of length k+1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: sequence.count)
        for (index, value) in sequence.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if sequence[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>(minimumCapacity: tails.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.insert(sequence[cursor])
            cursor = previous[cursor]
        }
        return result
    }
}
