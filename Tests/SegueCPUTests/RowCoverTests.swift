@testable import SegueCPU
import Testing

/// The stretches of a row that opaque items cover, and the gaps left to draw beneath them.
@Suite struct RowCoverTests {
    static func gaps(_ cover: RowCover, _ x0: Int, _ x1: Int) -> [[Int]] {
        var out: [[Int]] = []
        cover.forEachGap(in: x0, x1) { out.append([$0, $1]) }
        return out
    }

    @Test func stretchesMergeAndLeaveTheGapsBetween() {
        var cover = RowCover()
        #expect(Self.gaps(cover, 0, 100) == [[0, 100]])
        cover.add(60, 99)
        cover.add(1, 40)
        #expect(Self.gaps(cover, 0, 100) == [[0, 1], [40, 60], [99, 100]])
        cover.add(40, 45)  // touches the first: merged
        cover.add(50, 70)  // overlaps the second: merged
        #expect(Self.gaps(cover, 0, 100) == [[0, 1], [45, 50], [99, 100]])
        #expect(Self.gaps(cover, 10, 48) == [[45, 48]])
        #expect(Self.gaps(cover, 2, 30).isEmpty)
        cover.add(0, 100)
        #expect(Self.gaps(cover, 0, 100).isEmpty)
        cover.add(5, 5)  // empty: nothing
        #expect(Self.gaps(cover, -10, 110) == [[-10, 0], [100, 110]])
    }

    @Test func aStretchPastTheCapacityIsLetGo() {
        var cover = RowCover()
        for k in 0..<RowCover.capacity { cover.add(10 * k, 10 * k + 5) }
        cover.add(100, 105)  // apart from all: let go, so drawn over as if uncovered
        #expect(Self.gaps(cover, 95, 110) == [[95, 110]])
        cover.add(3, 12)  // joins the first two into 0..<15: room again
        cover.add(100, 105)
        #expect(Self.gaps(cover, 0, 110) == [[15, 20], [25, 30], [35, 100], [105, 110]])
    }
}
