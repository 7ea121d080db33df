import FoundationEssentials

/// One channel's scan element type, as the kernel prints it in `scan_elements/in_*_type`
/// (Documentation/ABI/testing/sysfs-bus-iio, "in_voltageY_type"):
/// `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`, e.g. `le:s16/16>>0`, `be:s12/16>>4`,
/// `le:s16/16X3>>0`. libiio prints signedness in capitals (`le:S16/16>>0`); both are accepted.
public struct IIOScanType: Sendable, Equatable, CustomStringConvertible {
    public var bigEndian: Bool
    public var signed: Bool
    /// Bits that carry the value.
    public var realBits: Int
    /// Bits the value occupies in the scan, a multiple of 8 (8, 16, 32 or 64).
    public var storageBits: Int
    /// Right shift applied to the stored word before masking to `realBits`.
    public var shift: Int
    /// Number of consecutive values of this type (the `X` suffix); 1 when absent.
    public var repeats: Int

    public init(bigEndian: Bool, signed: Bool, realBits: Int, storageBits: Int, shift: Int, repeats: Int = 1) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
        self.repeats = repeats
    }

    /// Parses the kernel text; nil when it does not follow the ABI grammar or the sizes are impossible.
    public init?(kernelText raw: String) {
        var text = Substring(raw.trimmedWhitespace)
        func take(_ prefix: String) -> Bool {
            guard text.hasPrefix(prefix) else { return false }
            text = text.dropFirst(prefix.count)
            return true
        }
        func number() -> Int? {
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            // Four digits are far above any size, shift or repeat the ABI writes (storage ≤ 64
            // bits), and a longer run of digits can never overflow `Int`.
            guard !digits.isEmpty, digits.count <= 4, let n = Int(digits) else { return nil }
            text = text.dropFirst(digits.count)
            return n
        }
        if take("be:") { bigEndian = true } else if take("le:") { bigEndian = false } else { return nil }
        if take("s") || take("S") { signed = true } else if take("u") || take("U") { signed = false } else { return nil }
        guard let bits = number(), take("/"), let storage = number() else { return nil }
        var count = 1
        if take("X") {
            guard let r = number(), r >= 1 else { return nil }
            count = r
        }
        guard take(">>"), let s = number(), text.isEmpty else { return nil }
        // Storage the decoder reads: whole power-of-two bytes up to its 64-bit word.
        guard [8, 16, 32, 64].contains(storage), bits >= 1, bits + s <= storage else { return nil }
        realBits = bits
        storageBits = storage
        shift = s
        repeats = count
    }

    /// Bytes of one value in the scan.
    public var storageBytes: Int { storageBits / UInt8.bitWidth }
    /// Bytes of all repeats together.
    public var totalBytes: Int { storageBytes * repeats }

    /// Decodes the value that starts at `offset` in `bytes`: byte order, shift, mask, sign extension.
    @inlinable
    public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        var word: UInt64 = 0
        let n = storageBytes
        if bigEndian {
            for i in 0..<n { word = (word << UInt8.bitWidth) | UInt64(bytes[offset + i]) }
        } else {
            for i in stride(from: n - 1, through: 0, by: -1) { word = (word << UInt8.bitWidth) | UInt64(bytes[offset + i]) }
        }
        word >>= UInt64(shift)
        if realBits < UInt64.bitWidth { word &= (UInt64(1) << UInt64(realBits)) - 1 }
        if signed && realBits < UInt64.bitWidth && (word >> UInt64(realBits - 1)) & 1 == 1 {
            word |= ~((UInt64(1) << UInt64(realBits)) - 1)
        }
        return Int64(bitPattern: word)
    }

    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(realBits)/\(storageBits)\(repeats > 1 ? "X\(repeats)" : "")>>\(shift)"
    }
}
