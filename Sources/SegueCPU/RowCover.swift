/// The stretches of one row that opaque items overwrite whole (their interiors), sorted and apart, so
/// that the items beneath skip them and the background is cleared only between them. It holds at most
/// `capacity` stretches; one more that touches none of them is let go, and its pixels are drawn twice, as
/// they would be with no cover at all.
struct RowCover {
    static let capacity = 4
    private var count = 0
    private var starts = SIMD4<Int>(), ends = SIMD4<Int>()

    /// Adds columns `x0..<x1`, merged with the stretches it overlaps or touches.
    mutating func add(_ x0: Int, _ x1: Int) {
        guard x0 < x1 else { return }
        var lo = x0, hi = x1
        var kept = RowCover()
        var at = 0  // where the merged stretch goes among those kept
        for k in 0..<count {
            if ends[k] < lo {
                kept.append(starts[k], ends[k])
                at = kept.count
            } else if starts[k] > hi {
                kept.append(starts[k], ends[k])
            } else {
                lo = min(lo, starts[k])
                hi = max(hi, ends[k])
            }
        }
        guard kept.count < Self.capacity else { return }
        kept.insert(lo, hi, at: at)
        self = kept
    }

    /// Calls `body` with each stretch of `x0..<x1` that no stretch covers, left to right.
    @inline(__always)
    func forEachGap(in x0: Int, _ x1: Int, _ body: (Int, Int) -> Void) {
        var x = x0
        for k in 0..<count {
            if ends[k] <= x { continue }
            if starts[k] >= x1 { break }
            if starts[k] > x { body(x, starts[k]) }
            x = ends[k]
        }
        if x < x1 { body(x, x1) }
    }

    private mutating func append(_ x0: Int, _ x1: Int) {
        starts[count] = x0
        ends[count] = x1
        count += 1
    }

    private mutating func insert(_ x0: Int, _ x1: Int, at index: Int) {
        var k = count
        while k > index {
            starts[k] = starts[k - 1]
            ends[k] = ends[k - 1]
            k -= 1
        }
        starts[index] = x0
        ends[index] = x1
        count += 1
    }
}
