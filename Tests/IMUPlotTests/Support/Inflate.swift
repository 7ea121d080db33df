/// DEFLATE decompression (RFC 1951) for reading Chromium's PNG screenshots in tests; Foundation on
/// Linux has no public decompressor. Canonical Huffman decoding one bit at a time, after Mark
/// Adler's description in zlib's contrib/puff: slow, short, and enough for a few screenshots.
struct InflateError: Error, CustomStringConvertible {
    var description: String
}

enum Inflate {
    /// Decompresses a zlib stream (RFC 1950: 2-byte header, DEFLATE data, Adler-32 not checked).
    static func zlib(_ data: [UInt8]) throws -> [UInt8] {
        guard data.count > 2, data[0] & 0x0F == 8 else { throw InflateError(description: "not a zlib stream") }
        var reader = BitReader(bytes: data, position: 2)
        var out: [UInt8] = []
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, &out)
            case 1: try codes(&reader, &out, Huffman.fixedLengths, Huffman.fixedDistances)
            case 2:
                let (l, d) = try dynamicTables(&reader)
                try codes(&reader, &out, l, d)
            default: throw InflateError(description: "bad block type")
            }
        }
        return out
    }

    private struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var buffer = 0
        var count = 0

        mutating func bits(_ n: Int) throws -> Int {
            var value = buffer
            while count < n {
                guard position < bytes.count else { throw InflateError(description: "data ends early") }
                value |= Int(bytes[position]) << count
                position += 1
                count += 8
            }
            buffer = value >> n
            count -= n
            return value & ((1 << n) - 1)
        }
    }

    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for l in 1..<15 { offsets[l + 1] = offsets[l] + counts[l] }
            for (symbol, l) in lengths.enumerated() where l != 0 {
                symbols[offsets[l]] = symbol
                offsets[l] += 1
            }
        }

        func decode(_ r: inout BitReader) throws -> Int {
            var code = 0, first = 0, index = 0
            for l in 1...15 {
                code |= try r.bits(1)
                let n = counts[l]
                if code - n < first { return symbols[index + code - first] }
                index += n
                first = (first + n) << 1
                code <<= 1
            }
            throw InflateError(description: "bad Huffman code")
        }

        static let fixedLengths = Huffman(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
        static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))
    }

    private static func stored(_ r: inout BitReader, _ out: inout [UInt8]) throws {
        r.buffer = 0
        r.count = 0
        guard r.position + 4 <= r.bytes.count else { throw InflateError(description: "data ends early") }
        let len = Int(r.bytes[r.position]) | Int(r.bytes[r.position + 1]) << 8
        r.position += 4
        guard r.position + len <= r.bytes.count else { throw InflateError(description: "data ends early") }
        out.append(contentsOf: r.bytes[r.position..<(r.position + len)])
        r.position += len
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                                       2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private static func codes(_ r: inout BitReader, _ out: inout [UInt8], _ lengths: Huffman, _ distances: Huffman) throws {
        while true {
            let symbol = try lengths.decode(&r)
            if symbol < 256 { out.append(UInt8(symbol)); continue }
            if symbol == 256 { return }
            let i = symbol - 257
            guard i < 29 else { throw InflateError(description: "bad length symbol") }
            let length = lengthBase[i] + (try r.bits(lengthExtra[i]))
            let d = try distances.decode(&r)
            guard d < 30 else { throw InflateError(description: "bad distance symbol") }
            let distance = distanceBase[d] + (try r.bits(distanceExtra[d]))
            guard distance <= out.count else { throw InflateError(description: "distance too far back") }
            let start = out.count - distance
            for k in 0..<length { out.append(out[start + k]) }
        }
    }

    private static func dynamicTables(_ r: inout BitReader) throws -> (Huffman, Huffman) {
        let nlen = try r.bits(5) + 257, ndist = try r.bits(5) + 1, ncode = try r.bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<ncode { codeLengths[order[i]] = try r.bits(3) }
        let lengthCode = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < nlen + ndist {
            let symbol = try lengthCode.decode(&r)
            switch symbol {
            case 0..<16: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw InflateError(description: "repeat with no length") }
                lengths += [Int](repeating: previous, count: 3 + (try r.bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try r.bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try r.bits(7)))
            }
        }
        guard lengths.count == nlen + ndist else { throw InflateError(description: "too many lengths") }
        return (Huffman(lengths: Array(lengths[0..<nlen])), Huffman(lengths: Array(lengths[nlen...])))
    }
}
