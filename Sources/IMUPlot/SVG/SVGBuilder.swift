/// Appends SVG elements to a string. Attribute values given here are numbers or fixed names;
/// text from outside (file names) goes through `Markup.escape`.
struct SVGBuilder {
    private(set) var out = ""

    /// Font stack present on Debian and Raspberry Pi OS, with generic fallback; no web fonts.
    static let font = "DejaVu Sans, Verdana, Arial, sans-serif"

    mutating func raw(_ s: String) { out += s }

    mutating func text(_ x: Double, _ y: Double, _ s: String, size: Double = 12, anchor: String = "start",
                       bold: Bool = false, italic: Bool = false, fill: String = Palette.ink) {
        out += "<text x=\"\(Number.px(x))\" y=\"\(Number.px(y))\" font-size=\"\(Number.px(size))\" fill=\"\(fill)\""
        if anchor != "start" { out += " text-anchor=\"\(anchor)\"" }
        if bold { out += " font-weight=\"bold\"" }
        if italic { out += " font-style=\"italic\"" }
        out += ">\(Markup.escape(s))</text>\n"
    }

    /// Text turned to read bottom to top, centred on (x, y): a value axis's unit.
    mutating func verticalText(_ x: Double, _ y: Double, _ s: String, size: Double = 11, fill: String = Palette.muted) {
        out += "<text x=\"\(Number.px(x))\" y=\"\(Number.px(y))\" font-size=\"\(Number.px(size))\" fill=\"\(fill)\" text-anchor=\"middle\" transform=\"rotate(-90 \(Number.px(x)) \(Number.px(y)))\">\(Markup.escape(s))</text>\n"
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String? = nil,
                       opacity: Double? = nil, title: String? = nil, attributes: String = "") {
        out += "<rect x=\"\(Number.px(x))\" y=\"\(Number.px(y))\" width=\"\(Number.px(w))\" height=\"\(Number.px(h))\" fill=\"\(fill)\""
        if let stroke { out += " stroke=\"\(stroke)\"" }
        if let opacity { out += " fill-opacity=\"\(Number.text(opacity, decimals: 2))\"" }
        if !attributes.isEmpty { out += " " + attributes }
        if let title { out += "><title>\(Markup.escape(title))</title></rect>\n" } else { out += "/>\n" }
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String,
                       width: Double = 1, dash: String? = nil) {
        out += "<line x1=\"\(Number.px(x1))\" y1=\"\(Number.px(y1))\" x2=\"\(Number.px(x2))\" y2=\"\(Number.px(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Number.px(width))\""
        if let dash { out += " stroke-dasharray=\"\(dash)\"" }
        out += "/>\n"
    }

    /// A path; `d` is built by the caller from numbers only.
    mutating func path(_ d: String, fill: String = "none", stroke: String? = nil, width: Double = 1,
                       dash: String? = nil, attributes: String = "") {
        guard !d.isEmpty else { return }
        out += "<path d=\"\(d)\" fill=\"\(fill)\""
        if let stroke { out += " stroke=\"\(stroke)\" stroke-width=\"\(Number.px(width))\" stroke-linejoin=\"round\"" }
        if let dash { out += " stroke-dasharray=\"\(dash)\"" }
        if !attributes.isEmpty { out += " " + attributes }
        out += "/>\n"
    }

    /// A triangle pointing up (▲) or down (▼) centred on x, its flat side on `y`.
    static func triangle(x: Double, y: Double, up: Bool, size: Double = 6) -> String {
        let h = size * 0.9, tip = up ? y - h : y + h
        return "M\(Number.px(x - size / 2)) \(Number.px(y))L\(Number.px(x + size / 2)) \(Number.px(y))L\(Number.px(x)) \(Number.px(tip))Z"
    }
}
