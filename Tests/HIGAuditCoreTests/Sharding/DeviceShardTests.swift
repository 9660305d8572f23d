import Testing
@testable import HIGAuditCore

/// The shard of a device is FNV-1a 64 of its UTF-8 bytes mod N (Pipelines/spark/README.md): a planner
/// outside the tool must get the same number.
@Suite struct DeviceShardTests {
    /// The published FNV-1a 64 test vectors (Fowler, Noll, Vo).
    @Test(arguments: [("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)])
    func hashIsFNV1a64(text: String, expected: UInt64) {
        #expect(DeviceShard.hash(text) == expected)
    }

    @Test func hashIsOverUTF8Bytes() {
        // "é" as one scalar and as e + U+0301 are different bytes, so different devices.
        #expect(DeviceShard.hash("caf\u{e9}") != DeviceShard.hash("cafe\u{301}"))
        #expect(DeviceShard.index(ofDevice: "foobar", count: 7) == Int(0x8594_4171_f739_67e8 as UInt64 % 7))
    }

    @Test func parsesKOfN() {
        #expect(DeviceShard(parsing: "0/1") == DeviceShard(index: 0, count: 1))
        #expect(DeviceShard(parsing: "3/4")?.index == 3)
        #expect(DeviceShard(parsing: "1048575/1048576")?.count == DeviceShard.maximumCount)
        for bad in ["4/4", "-1/4", "1/0", "1", "1/2/3", "a/2", "/2", "1/", "0/1048577", "0/4611686018427387904"] {
            #expect(DeviceShard(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func everyDeviceHasExactlyOneShard() {
        for count in 1...5 {
            for device in ["", "iPad1", "ipad-0042", "ü"] {
                let owners = (0..<count).filter { DeviceShard(index: $0, count: count)!.owns(device: device) }
                #expect(owners.count == 1)
            }
        }
    }
}

@Suite struct SessionShardRouterTests {
    @Test func aSessionStaysWithTheDeviceOfItsFirstEvent() {
        var router = SessionShardRouter<String>(count: 8)
        let first = router.shard(of: "s", firstDevice: "A")
        #expect(first == DeviceShard.index(ofDevice: "A", count: 8))
        // Whatever a later event names, the session's shard is remembered.
        for device in ["B", "C", "", "D"] { #expect(router.shard(of: "s", firstDevice: device) == first) }
        #expect(router.shard(of: "t", firstDevice: "") == DeviceShard.index(ofDevice: "", count: 8))
        #expect(router.sessionCount == 2)
    }

    @Test func theDeviceIsAskedOnlyForANewSession() {
        var router = SessionShardRouter<String>(count: 2)
        var asked = 0
        func device() -> String {
            asked += 1
            return "A"
        }
        _ = router.shard(of: "s", firstDevice: device())
        _ = router.shard(of: "s", firstDevice: device())
        #expect(asked == 1)
    }
}
