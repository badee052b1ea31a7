extension SegueError {
    /// A message as text and references to what its caller set (`Reference`): the library shows each
    /// reference in its own words, a command line as its flag. Written as a string with references
    /// interpolated:
    ///
    /// ```swift
    /// let message: SegueError.Message = "\(option: .damping, "the spring's damping ratio") must be in [0.05, 10]"
    /// message.description                   // "the spring's damping ratio must be in [0.05, 10]"
    /// message.text { "--\($0.name)" }       // "--damping must be in [0.05, 10]"
    /// ```
    public struct Message: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
        /// A piece of a message.
        public enum Part: Sendable, Equatable {
            case text(String)
            /// `reference`, with the `value` it is given after it where there is one (`output DIR`). `words`
            /// are what the library says instead of its name and value where those alone would not read
            /// ("the spring's damping ratio"); a command line says its flag and the value.
            case reference(Reference, value: String?, words: String?)
        }

        public var parts: [Part]

        public init(_ parts: [Part]) {
            self.parts = parts
        }

        public init(_ text: String) {
            parts = [.text(text)]
        }

        /// What `error` says: a `SegueError`'s message with its references kept, or the error's description.
        public init(describing error: any Error) {
            if let error = error as? SegueError, error.words.count == 1 { self = error.words[0] } else { self.init("\(error)") }
        }

        public init(stringLiteral text: String) {
            self.init(text)
        }

        public init(stringInterpolation: Interpolation) {
            parts = stringInterpolation.parts
        }

        /// The message with each reference said as `say` names it, followed by its value.
        public func text(naming say: (Reference) -> String) -> String {
            parts.map { part in
                switch part {
                case let .text(text): return text
                case let .reference(reference, value, _): return say(reference) + (value.map { " " + $0 } ?? "")
                }
            }.joined()
        }

        /// The message in the library's words.
        public var description: String {
            parts.map { part in
                switch part {
                case let .text(text): return text
                case let .reference(reference, value, words): return words ?? reference.name + (value.map { " " + $0 } ?? "")
                }
            }.joined()
        }

        /// Every reference the message makes, in order.
        public var references: [Reference] {
            parts.compactMap { if case let .reference(reference, _, _) = $0 { reference } else { nil } }
        }

        public struct Interpolation: StringInterpolationProtocol {
            var parts: [Part] = []

            public init(literalCapacity: Int, interpolationCount: Int) {}

            public mutating func appendLiteral(_ literal: String) {
                if literal.isEmpty { return }
                if case let .text(text)? = parts.last {
                    parts[parts.count - 1] = .text(text + literal)
                } else {
                    parts.append(.text(literal))
                }
            }

            /// A value as text; another message with its references kept.
            public mutating func appendInterpolation<T>(_ value: T) {
                if let message = value as? Message { appendInterpolation(message: message) } else { appendLiteral("\(value)") }
            }

            /// Another message, its references kept. Where a message may also be a `String` (an overload taking
            /// either), the label makes it this one: a `String` would say the message in the library's words.
            public mutating func appendInterpolation(message: Message) {
                for part in message.parts {
                    if case let .text(text) = part { appendLiteral(text) } else { parts.append(part) }
                }
            }

            /// The job's `option`, with the `value` it is given (`output DIR`), in `words` where the library
            /// says more than its name.
            public mutating func appendInterpolation(option: Option, value: String? = nil, _ words: String? = nil) {
                parts.append(.reference(.option(option), value: value, words: words))
            }

            /// An effect's option `name`, with the `value` it is given.
            public mutating func appendInterpolation(effectOption name: String, value: String? = nil) {
                parts.append(.reference(.effectOption(name), value: value, words: nil))
            }
        }
    }
}
