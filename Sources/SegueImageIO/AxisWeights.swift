/// Precomputed filter taps for resampling one axis from `source` to `destination` samples.
///
/// Output sample `i` is `sum(weights[i * stride + k] * input[first[i] + k])` for `k < count[i]`; each row of
/// weights sums to 1.
struct AxisWeights {
    let first: [Int]
    let count: [Int]
    let weights: [Float]
    let stride: Int

    init(source: Int, destination: Int) {
        precondition(source > 0 && destination > 0)
        if source == destination {
            self.init(identity: source)
        } else if destination < source {
            self.init(areaFrom: source, to: destination)
        } else {
            self.init(catmullRomFrom: source, to: destination)
        }
    }

    /// One tap of weight 1 per sample.
    private init(identity n: Int) {
        first = Array(0..<n)
        count = [Int](repeating: 1, count: n)
        weights = [Float](repeating: 1, count: n)
        stride = 1
    }

    /// Shrinking: each output sample is the exact average of the source area it covers, partly covered
    /// samples weighted by their coverage. No ringing, and flat or periodic content averages exactly.
    private init(areaFrom source: Int, to destination: Int) {
        let scale = Double(source) / Double(destination)
        let taps = Int(scale.rounded(.up)) + 1
        var first = [Int](repeating: 0, count: destination)
        var count = [Int](repeating: 0, count: destination)
        var weights = [Float](repeating: 0, count: destination * taps)
        for i in 0..<destination {
            let low = Double(i) * scale, high = min(Double(i + 1) * scale, Double(source))
            let start = Int(low), end = min(Int(high.rounded(.up)), source)  // samples start..<end
            first[i] = start
            count[i] = end - start
            for j in start..<end {
                let covered = min(high, Double(j + 1)) - max(low, Double(j))
                weights[i * taps + j - start] = Float(covered / (high - low))
            }
        }
        self.first = first
        self.count = count
        self.weights = weights
        self.stride = taps
    }

    /// Enlarging: Catmull-Rom interpolation at each output sample's centre, taps past the edges folded onto
    /// the edge sample (clamp-to-edge).
    private init(catmullRomFrom source: Int, to destination: Int) {
        let scale = Double(source) / Double(destination)
        let taps = 4
        var first = [Int](repeating: 0, count: destination)
        var count = [Int](repeating: 0, count: destination)
        var weights = [Float](repeating: 0, count: destination * taps)
        var row = [Double](repeating: 0, count: taps)
        for i in 0..<destination {
            let center = (Double(i) + 0.5) * scale - 0.5  // in source sample coordinates
            let base = Int(center.rounded(.down)) - 1  // the four samples around the centre
            let start = min(max(base, 0), source - 1), end = min(max(base + 3, 0), source - 1)
            for k in 0..<taps { row[k] = 0 }
            for j in base...(base + 3) {
                row[min(max(j, 0), source - 1) - start] += Self.catmullRom(Double(j) - center)
            }
            first[i] = start
            count[i] = end - start + 1
            let sum = row.reduce(0, +)
            for k in 0..<count[i] { weights[i * taps + k] = Float(row[k] / sum) }
        }
        self.first = first
        self.count = count
        self.weights = weights
        self.stride = taps
    }

    /// Catmull-Rom cubic (B = 0, C = 0.5), support [-2, 2].
    static func catmullRom(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
        if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
        return 0
    }
}
