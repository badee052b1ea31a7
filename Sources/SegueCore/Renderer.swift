/// A backend: it takes a transition's snapshots once, then draws draw lists into premultiplied RGBA8 pixmaps.
/// Implemented by the CPU compositor and the GLES renderer; a backend never knows which effect it draws.
public protocol Renderer: AnyObject {
    /// A short name: `cpu`, `gles`.
    var name: String { get }
    /// One line on what it runs on (for `segue info` and reports).
    var details: String { get }
    /// Takes the snapshots the draw lists refer to (`snapshots[id.rawValue]`); uploaded once per transition.
    func load(snapshots: [Pixmap]) throws
    /// Draws one frame into `target`, replacing its contents; `target` is resized to the frame if it differs.
    func draw(_ list: DrawList, into target: inout Pixmap) throws
    /// Draws `count` frames in order and hands each to `deliver` as soon as its pixels are ready. A backend may
    /// draw frame k+1 while frame k is read back; `deliver` sees frames in order.
    func drawFrames(count: Int, list: (Int) throws -> DrawList, deliver: (Int, Pixmap) throws -> Void) throws
}

extension Renderer {
    public func drawFrames(count: Int, list: (Int) throws -> DrawList, deliver: (Int, Pixmap) throws -> Void) throws {
        var frame = Pixmap(width: 0, height: 0)
        for k in 0..<count {
            try draw(try list(k), into: &frame)
            try deliver(k, frame)
        }
    }

    /// Draws one frame into a new pixmap.
    public func render(_ list: DrawList) throws -> Pixmap {
        var frame = Pixmap(width: list.width, height: list.height)
        try draw(list, into: &frame)
        return frame
    }
}
