import CLibIIO
#if canImport(Glibc)
import Glibc
#endif

extension IIOContext {
    /// Describes every device: channels, scan types, and the attribute values discovery needs.
    /// One bounded call per device; over iiod each costs one round trip per value read (about 10
    /// per IMU), so a big remote context never has to fit in one call's bound.
    func describe() throws -> [IIODeviceDescription] {
        let count = try withContext("listing devices") { ctx in Int(iio_context_get_devices_count(ctx)) }
        var result: [IIODeviceDescription] = []
        for i in 0..<count {
            let index = UInt32(i)
            if let d = try withContext("describing device \(i)", { ctx in
                try iio_context_get_device(ctx, index).map { try Self.describe($0) }
            }) {
                result.append(d)
            }
        }
        return result
    }

    static func describe(_ dev: OpaquePointer) throws -> IIODeviceDescription {
        let id = string(iio_device_get_id(dev)) ?? "?"
        let name = string(iio_device_get_name(dev)) ?? id
        var attributes: [String: String] = [:]
        for i in 0..<iio_device_get_attrs_count(dev) {
            guard let attr = string(iio_device_get_attr(dev, i)) else { continue }
            attributes[attr] = ""
            if IIODeviceDescription.deviceAttributesToRead.contains(attr) {
                attributes[attr] = try value(readDeviceAttribute(dev, attr), device: name, what: "reading \(attr)")
            }
        }
        var channels: [IIODeviceDescription.Channel] = []
        var anyScan = false
        for i in 0..<iio_device_get_channels_count(dev) {
            guard let chn = iio_device_get_channel(dev, i), let cid = string(iio_channel_get_id(chn)) else { continue }
            var attrs: [String: String] = [:]
            for j in 0..<iio_channel_get_attrs_count(chn) {
                guard let attr = string(iio_channel_get_attr(chn, j)) else { continue }
                attrs[attr] = ""
                if IIODeviceDescription.channelAttributesToRead.contains(attr) {
                    attrs[attr] = try value(readChannelAttribute(chn, attr), device: name, what: "reading \(cid) \(attr)")
                }
            }
            var channel = IIODeviceDescription.Channel(id: cid, isOutput: iio_channel_is_output(chn), attributes: attrs)
            if iio_channel_is_scan_element(chn) {
                anyScan = true
                channel.scanIndex = Int(iio_channel_get_index(chn))
                channel.scanType = scanType(chn)
            }
            channels.append(channel)
        }
        var trigger: String?
        var trig: OpaquePointer?
        if anyScan, iio_device_get_trigger(dev, &trig) == 0, let t = trig {
            trigger = string(iio_device_get_name(t)) ?? string(iio_device_get_id(t))
        }
        return IIODeviceDescription(id: id, name: name, attributes: attributes, channels: channels,
                                    bufferCapable: anyScan, currentTrigger: trigger,
                                    isTrigger: iio_device_is_trigger(dev))
    }

    /// libiio's parsed form of the channel's `scan_elements/*_type`, as an `IIOScanType`.
    static func scanType(_ chn: OpaquePointer) -> IIOScanType? {
        guard let f = iio_channel_get_data_format(chn)?.pointee else { return nil }
        return IIOScanType(bigEndian: f.is_be, signed: f.is_signed, realBits: Int(f.bits),
                           storageBits: Int(f.length), shift: Int(f.shift), repeats: max(1, Int(f.repeat)))
    }

    /// The text, or a typed error for the errno: EACCES names the udev fix, ENODEV a lost device.
    static func value(_ r: Result<String, Errno>, device: String, what: String) throws -> String {
        switch r {
        case let .success(text): return text
        case let .failure(e): throw error(e.code, device: device, what: what)
        }
    }

    static func error(_ code: Int32, device: String, what: String, uri: String = "") -> IIOError {
        if code == EACCES || code == EPERM { return .permissionDenied(uri: uri, what: "\(device) (\(what))") }
        return .ioFailed(device: device, what: what, errno: code)
    }
}
