import Pedometer

/// Colours, from Okabe and Ito's palette ("Color Universal Design", 2008), which stays distinct
/// for the common forms of colour blindness. Colour is never the only cue: floors up and down are
/// ▲ and ▼, activities carry their names, confidence is the band's height, truth is black and dashed.
/// Every colour is written out (no `currentColor`, no system colours) on an opaque white page, so
/// the plot looks the same in light and dark viewers.
enum Palette {
    static let page = "#FFFFFF"
    static let ink = "#1A1A1A"
    static let muted = "#5A5A5A"
    static let grid = "#DDDDDD"
    static let frame = "#8C8C8C"
    static let blue = "#0072B2"
    static let vermillion = "#D55E00"
    static let skyBlue = "#56B4E9"
    static let bluishGreen = "#009E73"
    static let orange = "#E69F00"
    static let reddishPurple = "#CC79A7"
    static let yellow = "#F0E442"
    static let truth = "#000000"

    static let acceleration = blue
    static let step = vermillion
    static let cadence = reddishPurple
    static let bout = skyBlue
    static let altitude = blue
    static let floorUp = vermillion
    static let floorDown = bluishGreen

    static func activity(_ a: ActivityClass) -> String {
        switch a {
        case .stationary: "#9A9A9A"
        case .walking: bluishGreen
        case .running: orange
        case .cycling: yellow   // issue 15; black text reads on it
        case .vehicle: blue
        case .unknown: "#E4E4E4"
        }
    }

    /// Text colour readable on `activity(a)` (contrast ≥ 4.5:1 either way).
    static func onActivity(_ a: ActivityClass) -> String {
        a == .vehicle ? "#FFFFFF" : "#000000"
    }
}
