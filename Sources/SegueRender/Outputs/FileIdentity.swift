import Foundation

/// Whether two paths name the same file: the same device and inode, whatever links, `..` or spellings lead
/// there. A path that does not exist is no file.
enum FileIdentity {
    static func same(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
