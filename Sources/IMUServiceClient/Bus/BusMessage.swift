import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// A borrowed sd-bus message: typed reads and appends for the few D-Bus types the service uses
/// (x int64, d double, s string, b boolean, and containers). Not Sendable.
public struct BusMessage {
    public let raw: OpaquePointer
    public init(_ raw: OpaquePointer) { self.raw = raw }

    static func code(_ c: Character) -> CChar { CChar(bitPattern: c.asciiValue!) }

    public static func check(_ r: Int32, _ what: @autoclosure () -> String) throws {
        if r < 0 { throw BusError(.failed, "D-Bus \(what()): \(Errno.text(-r))") }
    }

    // MARK: Reading
    public func readInt64() throws -> Int64 {
        var v: Int64 = 0
        try Self.check(sd_bus_message_read_basic(raw, Self.code("x"), &v), "reading an int64")
        return v
    }
    public func readDouble() throws -> Double {
        var v: Double = 0
        try Self.check(sd_bus_message_read_basic(raw, Self.code("d"), &v), "reading a double")
        return v
    }
    public func readString() throws -> String {
        var p: UnsafePointer<CChar>?
        try Self.check(sd_bus_message_read_basic(raw, Self.code("s"), &p), "reading a string")
        return p.map { String(cString: $0) } ?? ""
    }
    public func readBool() throws -> Bool {
        var v: Int32 = 0
        try Self.check(sd_bus_message_read_basic(raw, Self.code("b"), &v), "reading a boolean")
        return v != 0
    }
    /// An array of int64 (`ax`), read up to `limit` + 1 elements: a caller that takes at most
    /// `limit` refuses a longer one without reading millions of them (the message is left there).
    public func readInt64Array(limit: Int = .max - 1) throws -> [Int64] {
        guard try enter("a", "x") else { return [] }
        var out: [Int64] = []
        while try peek() != nil {
            out.append(try readInt64())
            if out.count > limit { return out }
        }
        try exit()
        return out
    }
    /// Enters a container; false at the end of an array.
    public func enter(_ type: Character, _ contents: String?) throws -> Bool {
        let r = sd_bus_message_enter_container(raw, Self.code(type), contents)
        try Self.check(r, "entering \(type)(\(contents ?? ""))")
        return r > 0
    }
    public func exit() throws {
        try Self.check(sd_bus_message_exit_container(raw), "leaving a container")
    }
    /// The type and contents of what comes next (nil at the end).
    public func peek() throws -> (type: Character, contents: String?)? {
        var t: CChar = 0
        var c: UnsafePointer<CChar>?
        let r = sd_bus_message_peek_type(raw, &t, &c)
        try Self.check(r, "peeking")
        if r == 0 { return nil }
        return (Character(UnicodeScalar(UInt8(bitPattern: t))), c.map { String(cString: $0) })
    }
    public func skip(_ types: String? = nil) throws {
        try Self.check(sd_bus_message_skip(raw, types), "skipping")
    }
    public var member: String? { sd_bus_message_get_member(raw).map { String(cString: $0) } }
    public var interface: String? { sd_bus_message_get_interface(raw).map { String(cString: $0) } }
    public var signature: String { sd_bus_message_get_signature(raw, 1).map { String(cString: $0) } ?? "" }

    // MARK: Appending
    public func append(_ v: Int64) throws {
        var v = v
        try Self.check(sd_bus_message_append_basic(raw, Self.code("x"), &v), "appending an int64")
    }
    public func append(_ v: Double) throws {
        var v = v
        try Self.check(sd_bus_message_append_basic(raw, Self.code("d"), &v), "appending a double")
    }
    public func append(_ v: String) throws {
        try v.withCString { try Self.check(sd_bus_message_append_basic(raw, Self.code("s"), $0), "appending a string") }
    }
    public func append(_ v: Bool) throws {
        var b: Int32 = v ? 1 : 0
        try Self.check(sd_bus_message_append_basic(raw, Self.code("b"), &b), "appending a boolean")
    }
    /// Appends an array of int64 (`ax`).
    public func append(_ v: [Int64]) throws {
        try open("a", "x")
        for x in v { try append(x) }
        try close()
    }
    public func open(_ type: Character, _ contents: String) throws {
        try Self.check(sd_bus_message_open_container(raw, Self.code(type), contents), "opening \(type)(\(contents))")
    }
    public func close() throws {
        try Self.check(sd_bus_message_close_container(raw), "closing a container")
    }
}
