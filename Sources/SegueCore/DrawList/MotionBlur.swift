/// Motion blur as a film camera makes it: the shutter opens at the frame's time and stays open
/// `(shutter / 360) / fps` seconds; the frame is the mean of `samples` frames spread evenly over that interval,
/// at `t_k + (i + 0.5) / samples * (shutter / 360) / fps`, `i = 0 ..< samples`.
public struct MotionBlur: Sendable, Equatable, Hashable {
    /// Frames averaged per output frame: 1 (no blur) ... `maxSamples`.
    public var samples: Int
    /// The shutter angle in degrees, (0, 360]: 180 leaves the shutter open half of each frame's interval.
    public var shutter: Double

    public static let defaultShutter = 180.0
    /// The most samples a frame may take (each one a whole frame drawn).
    public static let maxSamples = Limits.maxMotionBlurSamples

    public init(samples: Int, shutter: Double = MotionBlur.defaultShutter) {
        self.samples = samples
        self.shutter = shutter
    }

    /// Whether it blurs at all (more than one sample).
    public var blurs: Bool { samples > 1 }

    /// What is wrong with it, or nil.
    public var problem: String? {
        if !(1...Self.maxSamples).contains(samples) { return "samples must be a whole number in 1...\(Self.maxSamples), not \(samples)" }
        if !(shutter > 0 && shutter <= 360) { return "shutter must be degrees in (0, 360], not \(shutter)" }
        return nil
    }

    /// Seconds after the frame's time at which each sample is taken, at `fps`.
    public func offsets(fps: Double) -> [Double] {
        let open = shutter / 360 / fps
        return (0..<samples).map { (Double($0) + 0.5) / Double(samples) * open }
    }
}

/// Sums premultiplied RGBA8 frames at 32 bits per channel and gives their mean, rounded once to nearest (motion
/// blur's shutter samples). Averaging premultiplied channels keeps `r, g, b <= a`.
public struct FrameAccumulator {
    public private(set) var width = 0
    public private(set) var height = 0
    public private(set) var count = 0
    private var sums: [UInt32] = []

    public init() {}

    /// Starts over for frames of `width` x `height` (the sums are kept allocated when the size is the same).
    public mutating func reset(width: Int, height: Int) {
        if width != self.width || height != self.height || sums.count != width * height * 4 {
            sums = [UInt32](repeating: 0, count: width * height * 4)
        } else {
            sums.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        self.width = width
        self.height = height
        count = 0
    }

    /// Adds one frame (of the size given to `reset`).
    public mutating func add(_ frame: Pixmap) {
        precondition(frame.width == width && frame.height == height, "a frame of another size")
        precondition(count < Int(UInt32.max / 255), "too many frames")
        count += 1
        sums.withUnsafeMutableBufferPointer { s in
            frame.pixels.withUnsafeBufferPointer { px in
                guard let base = s.baseAddress else { return }
                for i in 0..<px.count {
                    let p = px[i], d = base + 4 &* i
                    d[0] &+= p & 0xFF
                    d[1] &+= p >> 8 & 0xFF
                    d[2] &+= p >> 16 & 0xFF
                    d[3] &+= p >> 24
                }
            }
        }
    }

    /// The mean of the frames added, each channel rounded to nearest, into `target` (resized if it differs).
    public func average(into target: inout Pixmap) {
        if target.width != width || target.height != height { target = Pixmap(width: width, height: height) }
        let n = UInt32(max(count, 1)), half = n / 2
        sums.withUnsafeBufferPointer { s in
            target.pixels.withUnsafeMutableBufferPointer { px in
                guard let base = s.baseAddress else { return }
                for i in 0..<px.count {
                    let d = base + 4 &* i
                    px[i] = Pixmap.pack(r: (d[0] &+ half) / n, g: (d[1] &+ half) / n, b: (d[2] &+ half) / n, a: (d[3] &+ half) / n)
                }
            }
        }
    }
}
