import Foundation

/// A decoded 8-bit RGB or RGBA PNG (what Chromium's --screenshot writes), for looking at pixels.
struct PNGImage {
    let width: Int
    let height: Int
    /// Bytes per pixel: 3 (RGB) or 4 (RGBA).
    let channels: Int
    private let pixels: [UInt8]

    init(path: String) throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard data.count > 8, data[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw InflateError(description: "\(path) is not a PNG")
        }
        func u32(_ i: Int) -> Int { Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3]) }
        var i = 8
        var w = 0, h = 0, colourType = 0
        var idat: [UInt8] = []
        while i + 8 <= data.count {
            let length = u32(i)
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = (i + 8)..<(i + 8 + length)
            guard body.upperBound <= data.count else { throw InflateError(description: "PNG chunk runs past the end") }
            if type == "IHDR" {
                w = u32(body.lowerBound)
                h = u32(body.lowerBound + 4)
                guard data[body.lowerBound + 8] == 8, data[body.lowerBound + 12] == 0 else {
                    throw InflateError(description: "only 8-bit, non-interlaced PNGs are read here")
                }
                colourType = Int(data[body.lowerBound + 9])
            } else if type == "IDAT" {
                idat += data[body]
            }
            i = body.upperBound + 4
        }
        guard colourType == 2 || colourType == 6 else { throw InflateError(description: "PNG colour type \(colourType) is not RGB(A)") }
        width = w
        height = h
        channels = colourType == 6 ? 4 : 3
        pixels = try Self.unfilter(Inflate.zlib(idat), width: w, height: h, channels: channels)
    }

    /// PNG's per-row filters (none, sub, up, average, Paeth) undone.
    private static func unfilter(_ raw: [UInt8], width: Int, height: Int, channels: Int) throws -> [UInt8] {
        let stride = width * channels
        guard raw.count >= height * (stride + 1) else { throw InflateError(description: "PNG data too short") }
        var out = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let src = y * (stride + 1) + 1, dst = y * stride
            for x in 0..<stride {
                let a = x >= channels ? Int(out[dst + x - channels]) : 0
                let b = y > 0 ? Int(out[dst - stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(out[dst - stride + x - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw InflateError(description: "bad PNG filter \(filter)")
                }
                out[dst + x] = UInt8((Int(raw[src + x]) + predictor) & 0xFF)
            }
        }
        return out
    }

    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * channels
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    /// A pixel with colour in it (not white, grey or black): the plot's data marks are all coloured,
    /// its frames, grid and text grey.
    func isChromatic(_ x: Int, _ y: Int) -> Bool {
        let p = rgb(x, y)
        return Swift.max(p.r, p.g, p.b) - Swift.min(p.r, p.g, p.b) > 60
    }

    /// Close to `hex` (#RRGGBB) within `tolerance` per channel (anti-aliasing blends edges).
    func matches(_ x: Int, _ y: Int, _ hex: String, tolerance: Int = 40) -> Bool {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        let p = rgb(x, y)
        return abs(p.r - (v >> 16)) <= tolerance && abs(p.g - (v >> 8 & 0xFF)) <= tolerance && abs(p.b - (v & 0xFF)) <= tolerance
    }

    /// How many pixels in the rectangle satisfy `test`.
    func count(x: Range<Int>, y: Range<Int>, _ test: (Int, Int) -> Bool) -> Int {
        var n = 0
        for yy in y.clamped(to: 0..<height) { for xx in x.clamped(to: 0..<width) where test(xx, yy) { n += 1 } }
        return n
    }

    /// Fraction of pixels that differ from `other` by more than `tolerance` in some channel.
    func difference(from other: PNGImage, tolerance: Int = 8) -> Double {
        guard width == other.width, height == other.height else { return 1 }
        var n = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = rgb(x, y), b = other.rgb(x, y)
                if abs(a.r - b.r) > tolerance || abs(a.g - b.g) > tolerance || abs(a.b - b.b) > tolerance { n += 1 }
            }
        }
        return Double(n) / Double(width * height)
    }
}
