import Foundation

// The HTTP/1.1 the studio speaks, as values: what `StudioServer` reads off a socket and what `StudioHandler`
// answers. Its own rather than FlyingFox's: that package's HTTP module brings Foundation's URLSession (its proxy
// handler), and with it libcurl and its TLS libraries, into a static build (`make dist`); the sockets and the
// event loop are FlyingSocks', which needs neither.

/// A request's method: `GET`, `POST`, `HEAD`, or whatever the client sent.
struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    var rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
    static let GET = HTTPMethod("GET")
    static let POST = HTTPMethod("POST")
    static let HEAD = HTTPMethod("HEAD")
    var description: String { rawValue }
}

/// A header field's name, compared without case.
struct HTTPHeader: Hashable, Sendable {
    var rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
    static func == (a: HTTPHeader, b: HTTPHeader) -> Bool { a.rawValue.lowercased() == b.rawValue.lowercased() }
    func hash(into hasher: inout Hasher) { hasher.combine(rawValue.lowercased()) }

    static let connection = HTTPHeader("Connection")
    static let contentLength = HTTPHeader("Content-Length")
    static let contentType = HTTPHeader("Content-Type")
    static let expect = HTTPHeader("Expect")
    static let transferEncoding = HTTPHeader("Transfer-Encoding")
}

/// Header fields in the order they came or were set; a name given twice keeps both (`values(for:)`), and the
/// subscript reads the first.
struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    private var fields: [(name: HTTPHeader, value: String)] = []

    init() {}
    init(dictionaryLiteral elements: (HTTPHeader, String)...) {
        for (name, value) in elements { addValue(value, for: name) }
    }

    subscript(_ name: HTTPHeader) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            fields.removeAll { $0.name == name }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    mutating func addValue(_ value: String, for name: HTTPHeader) { fields.append((name, value)) }
    func values(for name: HTTPHeader) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    func makeIterator() -> IndexingIterator<[(name: HTTPHeader, value: String)]> { fields.makeIterator() }
}

/// A response's status: its code and reason phrase (equal by the code).
struct HTTPStatusCode: Hashable, Sendable, CustomStringConvertible {
    var code: Int
    var phrase: String
    init(_ code: Int, phrase: String) {
        self.code = code
        self.phrase = phrase
    }
    static func == (a: HTTPStatusCode, b: HTTPStatusCode) -> Bool { a.code == b.code }
    func hash(into hasher: inout Hasher) { hasher.combine(code) }
    var description: String { "\(code) \(phrase)" }

    static let `continue` = HTTPStatusCode(100, phrase: "Continue")
    static let ok = HTTPStatusCode(200, phrase: "OK")
    static let badRequest = HTTPStatusCode(400, phrase: "Bad Request")
    static let forbidden = HTTPStatusCode(403, phrase: "Forbidden")
    static let notFound = HTTPStatusCode(404, phrase: "Not Found")
    static let conflict = HTTPStatusCode(409, phrase: "Conflict")
    static let lengthRequired = HTTPStatusCode(411, phrase: "Length Required")
    static let payloadTooLarge = HTTPStatusCode(413, phrase: "Content Too Large")
    static let uriTooLong = HTTPStatusCode(414, phrase: "URI Too Long")
    static let expectationFailed = HTTPStatusCode(417, phrase: "Expectation Failed")
    static let unprocessableContent = HTTPStatusCode(422, phrase: "Unprocessable Content")
    static let headerFieldsTooLarge = HTTPStatusCode(431, phrase: "Request Header Fields Too Large")
    static let internalServerError = HTTPStatusCode(500, phrase: "Internal Server Error")
    static let serviceUnavailable = HTTPStatusCode(503, phrase: "Service Unavailable")
}

/// A request as the server read it: the target split into its path and its query's items (percent-decoded; a
/// `+` stays a `+`), the header fields and the whole body (at most the server's body limit).
struct HTTPRequest: Sendable {
    struct QueryItem: Sendable, Equatable {
        var name: String
        var value: String
    }

    var method: HTTPMethod
    var path: String
    var query: [QueryItem]
    var headers: HTTPHeaders
    var body: [UInt8]

    init(method: HTTPMethod, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A request for `target` (`/path?query` as it stands in a request line): the path percent-decoded, the
    /// query's items too. A target that is no URL path has the path "" (which no route answers).
    init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        let components = URLComponents(string: target)
        let path = components?.path ?? ""
        let query = (components?.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value ?? "") }
        self.init(method: method, path: path, query: query, headers: headers, body: body)
    }
}

/// A response: its status, its header fields (the server adds `Content-Length` or chunking and `Connection`),
/// and a body either whole or a stream of chunks sent as they come (the event stream).
struct HTTPResponse: Sendable {
    enum Body: Sendable {
        case bytes(Data)
        case stream(AsyncStream<[UInt8]>)
    }

    var statusCode: HTTPStatusCode
    var headers: HTTPHeaders
    var body: Body

    init(statusCode: HTTPStatusCode, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = .bytes(body)
    }

    init(statusCode: HTTPStatusCode, headers: HTTPHeaders = [:], stream: AsyncStream<[UInt8]>) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = .stream(stream)
    }

    /// The whole body (empty for a stream).
    var bodyData: Data {
        if case let .bytes(data) = body { return data }
        return Data()
    }
}

/// What answers the server's requests.
protocol HTTPHandler: Sendable {
    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse
}
