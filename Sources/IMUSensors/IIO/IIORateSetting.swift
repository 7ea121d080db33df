import CLibIIO
import FoundationEssentials

/// Sets a device's output data rate before capture, device-wide (`sampling_frequency`) or per
/// channel (bmi160: `in_accel_sampling_frequency`). Drivers accept only the values in
/// `sampling_frequency_available`, so the slowest one at or above the request is written (or the
/// fastest there is). This matters for polling too: st_sensors sleeps two output periods per
/// one-shot read, which is 2 s per read at the LIS3DH's power-on 1 Hz.
enum IIORateSetting {
    /// Call inside a gate closure. Failures are ignored: the device keeps its rate and the
    /// timestamps tell the truth.
    static func apply(_ dev: OpaquePointer, hz: Double, channels: [String]) {
        if iio_device_find_attr(dev, "sampling_frequency") != nil {
            let available = IIOContext.readDeviceAttribute(dev, "sampling_frequency_available")
            _ = iio_device_attr_write(dev, "sampling_frequency", text(choose(hz, available)))
            return
        }
        for id in channels {
            guard let chn = iio_device_find_channel(dev, id, false), iio_channel_find_attr(chn, "sampling_frequency") != nil else { continue }
            let available = IIOContext.readChannelAttribute(chn, "sampling_frequency_available")
            _ = iio_channel_attr_write(chn, "sampling_frequency", text(choose(hz, available)))
        }
    }

    /// The device's output rate (Hz) as the driver reports it, device-wide or on the first of
    /// `channels` that has one; nil when neither reads as a number.
    static func current(_ dev: OpaquePointer, channels: [String]) -> Double? {
        if case let .success(text) = IIOContext.readDeviceAttribute(dev, "sampling_frequency") { return DecimalParser.parse(text.filter { !$0.isWhitespace }) }
        for id in channels {
            guard let chn = iio_device_find_channel(dev, id, false),
                  case let .success(text) = IIOContext.readChannelAttribute(chn, "sampling_frequency") else { continue }
            return DecimalParser.parse(text.filter { !$0.isWhitespace })
        }
        return nil
    }

    /// The slowest available rate ≥ `hz`, else the fastest; `hz` itself when the list is unknown.
    static func choose(_ hz: Double, _ available: Result<String, IIOContext.Errno>) -> Double {
        guard case let .success(list) = available else { return hz }
        let rates = list.split(separator: " ").compactMap { DecimalParser.parse(String($0)) }.sorted()
        return rates.first { $0 >= hz } ?? rates.last ?? hz
    }

    /// A rate (Hz) as sysfs and messages write it: "100", "6.25". Whole values below 10⁹ Hz (far
    /// above any IIO device) drop the ".0"; anything else, read from a file, is written as it is,
    /// never converted to an integer it does not fit.
    static func text(_ hz: Double) -> String {
        hz == hz.rounded() && abs(hz) < 1e9 ? String(Int(hz)) : String(hz)
    }
}
