/// Datadog RUM events (SPEC §7), one event object a line, as the RUM schema
/// (`DataDog/rum-events-format`) lays them out; an events-API item (`{"attributes": {"attributes":
/// {…}}}`) is read through to the event inside. Automatic events of dd-sdk-ios: `view` (screen views),
/// actions of `action.type` `tap` and `back`, `application_start` (the launch) and the `app_launch`
/// vital (time to initial display; prewarmed launches are left out, their durations mean nothing).
extension EventImporter {
    func datadogEvent() -> Judged {
        var root = 0
        if tape.member(0, "date") == nil, let inner = tape.member(0, "attributes", "attributes"), tape[inner].kind == .object {
            root = inner
        }
        guard let typeIndex = tape.member(root, "type") else { return .problem(ImportProblem("missing type (the RUM event's type)")) }
        guard tape[typeIndex].kind == .string else { return .problem(ImportProblem("type is not a string", at: tape, typeIndex)) }
        do throws(ImportProblem) {
            let mapping: ImportedMapping
            switch tape.string(typeIndex) {
            case "view":
                mapping = .screenView(tape.string(try tape.requiredString(tape.member(root, "view"), "name", name: "view.name")))
            case "action":
                let action = tape.member(root, "action")
                let actionType = tape.string(try tape.requiredString(action, "type", name: "action.type"))
                switch actionType {
                case "custom":
                    let name = try tape.requiredString(tape.member(action!, "target"), "name", name: "action.target.name")
                    guard let kind = ConventionName.kind(tape, name) else { return .unknown(tape.string(name)) }
                    mapping = .convention(kind)
                case "tap":
                    let target = try tape.optionalString(tape.member(action!, "target"), "name", name: "action.target.name")
                    mapping = .tap(target: target.map { tape.string($0) }, x: nil, y: nil)
                case "back":
                    mapping = .tap(target: "nav.back", x: nil, y: nil)
                case "application_start":
                    mapping = .launch
                default:
                    return .unknown("action." + actionType)
                }
            case "vital":
                let vital = tape.member(root, "vital")
                let vitalType = tape.string(try tape.requiredString(vital, "type", name: "vital.type"))
                guard vitalType == "app_launch" else { return .unknown("vital." + vitalType) }
                let metric = try tape.optionalString(vital, "app_launch_metric", name: "vital.app_launch_metric").map { tape.string($0) }
                guard metric == "ttid" else { return .unknown("vital.app_launch.\(metric ?? "")") }
                if let prewarmed = tape.member(vital!, "is_prewarmed"), tape[prewarmed].kind == .bool, tape[prewarmed].flag {
                    return .unknown("vital.app_launch.prewarmed")
                }
                guard let durationIndex = tape.member(vital!, "duration") else { throw ImportProblem("missing vital.duration") }
                let duration = try tape.finiteNumber(durationIndex, name: "vital.duration")
                let envelope = try datadogEnvelope(root)
                // The vital is dated at the launch's start; the app is ready `duration` ns later.
                return .mapped(.ready(ts: envelope.ts + Int64(duration / 1_000_000)), envelope, .object(skipDollar: false))
            case let other:
                return .unknown(other)
            }
            return .mapped(mapping, try datadogEnvelope(root), .object(skipDollar: false))
        } catch {
            return .problem(error)
        }
    }

    private func datadogEnvelope(_ root: Int) throws(ImportProblem) -> ImportedEnvelope {
        var envelope = ImportedEnvelope()
        guard let date = tape.member(root, "date") else { throw ImportProblem("missing date") }
        guard tape[date].kind == .number, tape[date].flag, let ms = tape.integer(date) else {
            throw ImportProblem("date is not an integer of milliseconds", at: tape, date)
        }
        envelope.ts = ms
        envelope.session = try tape.requiredString(tape.member(root, "session"), "id", name: "session.id")
        envelope.device = try tape.optionalString(tape.member(root, "usr"), "anonymous_id", name: "usr.anonymous_id")
        envelope.appVersion = try tape.optionalString(root, "version", name: "version")
        envelope.osVersion = try tape.optionalString(tape.member(root, "os"), "version", name: "os.version")
        envelope.screen = try tape.optionalString(tape.member(root, "view"), "name", name: "view.name")
        envelope.id = try tape.optionalString(tape.member(root, "action"), "id", name: "action.id")
        if let context = tape.member(root, "context") {
            guard tape[context].kind == .object else { throw ImportProblem("context is not an object", at: tape, context) }
            envelope.fields = context
        }
        return envelope
    }
}
