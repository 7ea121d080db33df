/// Where each enabled channel sits inside one scan of an IIO buffer, and how to cut a block of
/// scans into values.
///
/// The kernel lays a scan out in scan-index order; each element starts at a multiple of its own
/// size (storage bytes × repeats) and the whole scan is padded to a multiple of its largest
/// element (drivers/iio/industrialio-buffer.c, iio_compute_scan_bytes). A 64-bit timestamp
/// after three 16-bit axes therefore starts at byte 8, not 6, and the scan is 16 bytes.
public struct IIOScanLayout: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        /// The channel id, e.g. "accel_x" or "timestamp".
        public var channel: String
        public var index: Int
        public var type: IIOScanType
        /// Byte offset of the first value inside a scan.
        public var offset: Int
    }

    /// Enabled channels in scan order.
    public let elements: [Element]
    /// Bytes per scan, padding included.
    public let scanBytes: Int

    /// Builds the layout from the enabled channels (any order; they are sorted by scan index).
    public init(channels: [(channel: String, index: Int, type: IIOScanType)]) {
        var bytes = 0
        var largest = 1
        var placed: [Element] = []
        for c in channels.sorted(by: { $0.index < $1.index }) {
            let length = c.type.totalBytes
            bytes = Self.align(bytes, to: length)
            placed.append(Element(channel: c.channel, index: c.index, type: c.type, offset: bytes))
            bytes += length
            largest = max(largest, length)
        }
        elements = placed
        scanBytes = placed.isEmpty ? 0 : Self.align(bytes, to: largest)
    }

    /// Rounds `value` up to a multiple of `unit`.
    static func align(_ value: Int, to unit: Int) -> Int {
        guard unit > 1 else { return value }
        let r = value % unit
        return r == 0 ? value : value + unit - r
    }

    /// Position of a channel in `elements`, or nil when it is not enabled.
    public func position(of channel: String) -> Int? { elements.firstIndex { $0.channel == channel } }

    /// Cuts `bytes` into whole scans and calls `body` with each scan's values in `elements` order
    /// (the first repeat of a repeated element). Returns how many scans it decoded; a trailing
    /// partial scan is left alone (the caller keeps it for the next block).
    @discardableResult
    public func demux(_ bytes: UnsafeRawBufferPointer, _ body: (_ values: UnsafeBufferPointer<Int64>) -> Void) -> Int {
        guard scanBytes > 0 else { return 0 }
        let count = bytes.count / scanBytes
        var values = [Int64](repeating: 0, count: elements.count)
        values.withUnsafeMutableBufferPointer { out in
            for s in 0..<count {
                let base = s * scanBytes
                for (i, e) in elements.enumerated() {
                    out[i] = e.type.decode(bytes, at: base + e.offset)
                }
                body(UnsafeBufferPointer(out))
            }
        }
        return count
    }
}
