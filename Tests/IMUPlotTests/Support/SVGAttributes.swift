import Foundation

/// Reads numbers the SVG states about itself (root size, the time-to-x mapping, panel extents).
struct SVGFacts {
    let text: String

    init(path: String) throws { text = try String(contentsOfFile: path, encoding: .utf8) }

    /// The numeric attribute `name` of the first element whose opening tag contains `marker`.
    func number(_ name: String, in marker: String) -> Double? {
        guard let m = text.range(of: marker) else { return nil }
        let tagStart = text[..<m.lowerBound].lastIndex(of: "<") ?? text.startIndex
        guard let tagEnd = text[m.lowerBound...].firstIndex(of: ">") else { return nil }
        let tag = text[tagStart..<tagEnd]
        guard let a = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[a.upperBound...]
        guard let q = rest.firstIndex(of: "\"") else { return nil }
        return Double(rest[..<q])
    }

    var width: Int { Int(number("width", in: "<svg") ?? 0) }
    var height: Int { Int(number("height", in: "<svg") ?? 0) }

    /// x of recording time `t`, px, by the mapping the SVG states.
    func x(_ t: Double) -> Double? {
        guard let t0 = number("data-t0", in: "<svg"), let t1 = number("data-t1", in: "<svg"),
              let x0 = number("data-x0", in: "<svg"), let x1 = number("data-x1", in: "<svg") else { return nil }
        return x0 + (t - t0) / (t1 - t0) * (x1 - x0)
    }

    /// Top and bottom (px) of the panel group with `id`.
    func panel(_ id: String) -> (top: Int, bottom: Int)? {
        guard let y0 = number("data-y0", in: "id=\"\(id)\""), let y1 = number("data-y1", in: "id=\"\(id)\"") else { return nil }
        return (Int(y0.rounded(.up)), Int(y1.rounded(.down)))
    }
}
