#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// printf-style text through the C library's `vsnprintf`: what `String(format:)` gives for
    /// number conversions (`%.3f`, `%+.2f`, `%7.1f`, `%ld`, `%02ld`, `%08lX`), without importing
    /// full Foundation, which would map libFoundation and ICU into every tool (docs/memory.md).
    /// Swift never calls `setlocale`, so the "C" locale applies: a point before decimals, always.
    /// Numbers only: pass `Int` with `l` conversions (`%ld`), and interpolate strings around it.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        self = Self.formatted(format, arguments)
    }

    private static func formatted(_ format: String, _ arguments: [CVarArg]) -> String {
        var size = 64
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let needed = Int(withVaList(arguments) { vsnprintf(&buffer, size, format, $0) })
            if needed < 0 { return "" }   // an encoding error: nothing printable
            if needed < size { return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            size = needed + 1
        }
    }
}
