/// Datadog RUM events (SPEC §7), one event object a line, as the RUM schema
/// (`DataDog/rum-events-format`) lays them out; an events-API item (`{"attributes": {"attributes":
/// {…}}}`) is read through to the event inside, and a page of them (`{"data": [item, …]}`) is read item
/// by item (`datadogPage`). Automatic events of dd-sdk-ios: `view` (screen views),
/// actions of `action.type` `tap` and `back`, `application_start` (the launch) and the `app_launch`
/// vital (time to initial display; prewarmed launches are left out, their durations mean nothing).
extension EventImporter {
    /// Where a RUM event's members are: found from its keys alone, so kept per layout (`LayoutMemo`).
    struct DatadogPlaces {
        var root = 0
        /// The `data` array of an events-API page (a line with no `type` whose `data` is an array): the
        /// line's events are its items, and no other member is looked for.
        var pageItems: Int?
        var type: Int?
        var view, viewName: Int?
        var action, actionType, actionTargetName, actionId: Int?
        var vital, vitalType, vitalMetric, vitalPrewarmed, vitalDuration: Int?
        var date, session, sessionId, usr, usrAnonymousId, version, os, osVersion, context: Int?
        /// The envelope but its `ts` when every check of `datadogEnvelope` after the date's passes
        /// (they look at the kinds of values only, which a layout's lines share), else nil.
        var checkedEnvelope: ImportedEnvelope?
    }

    /// The places of the line's event, or of its page's items (`pageItems`).
    func datadogLinePlaces() -> DatadogPlaces {
        if tape.member(0, "type") == nil, let data = tape.member(0, "data"), tape[data].kind == .array {
            var places = DatadogPlaces()
            places.pageItems = data
            return places
        }
        return datadogPlaces(of: 0)
    }

    /// The places of the event the object at `value` is: itself, or the event inside it when it is an
    /// events-API item.
    private func datadogPlaces(of value: Int) -> DatadogPlaces {
        var places = DatadogPlaces()
        places.root = value
        if tape.member(value, "date") == nil, let inner = tape.member(value, "attributes", "attributes"), tape[inner].kind == .object {
            places.root = inner
        }
        let root = places.root
        places.type = tape.member(root, "type")
        places.view = tape.member(root, "view")
        places.viewName = places.view.flatMap { tape.member($0, "name") }
        places.action = tape.member(root, "action")
        places.actionType = places.action.flatMap { tape.member($0, "type") }
        places.actionTargetName = places.action.flatMap { tape.member($0, "target") }.flatMap { tape.member($0, "name") }
        places.actionId = places.action.flatMap { tape.member($0, "id") }
        places.vital = tape.member(root, "vital")
        places.vitalType = places.vital.flatMap { tape.member($0, "type") }
        places.vitalMetric = places.vital.flatMap { tape.member($0, "app_launch_metric") }
        places.vitalPrewarmed = places.vital.flatMap { tape.member($0, "is_prewarmed") }
        places.vitalDuration = places.vital.flatMap { tape.member($0, "duration") }
        places.date = tape.member(root, "date")
        places.session = tape.member(root, "session")
        places.sessionId = places.session.flatMap { tape.member($0, "id") }
        places.usr = tape.member(root, "usr")
        places.usrAnonymousId = places.usr.flatMap { tape.member($0, "anonymous_id") }
        places.version = tape.member(root, "version")
        places.os = tape.member(root, "os")
        places.osVersion = places.os.flatMap { tape.member($0, "version") }
        places.context = tape.member(root, "context")
        places.checkedEnvelope = try? datadogEnvelopeKinds(places)
        return places
    }

    /// Judges each item of a page (its `data` array at `items`) as the line of that item alone would
    /// be, numbered by its place in the page (`PATH:LINE#K`, as an OTLP line's records). Items are not
    /// planned: a page is as long as its items together, so its line is seldom learned as a layout.
    func datadogPage(_ items: Int, _ handle: (Int32, ImportedRecord) -> Bool) {
        let measuresItems = Self.mayPassLineLimit(sourceBytes: sourceBytes)
        tape.forEachElement(items) { position, item in
            if measuresItems { sourceBytes = spanBytes(item) }
            let record = Int32(truncatingIfNeeded: position)
            guard tape[item].kind == .object else {
                emit(record: record, .problem(ImportProblem("the page's item is not an object", at: tape, item)), handle)
                return
            }
            var itemPlaces = datadogPlaces(of: item)
            emit(record: record, datadogEvent(&itemPlaces), handle)
        }
    }

    func datadogEvent(_ places: UnsafePointer<DatadogPlaces>) -> Judged {
        guard let typeIndex = places.pointee.type else { return .problem(ImportProblem("missing type (the RUM event's type)")) }
        guard tape[typeIndex].kind == .string else { return .problem(ImportProblem("type is not a string", at: tape, typeIndex)) }
        do throws(ImportProblem) {
            let mapping: ImportedMapping
            if tape.stringEquals(typeIndex, "view") {
                mapping = .screenView(tape.string(try tape.requiredString(places.pointee.viewName, name: "view.name")))
            } else if tape.stringEquals(typeIndex, "action") {
                let actionType = try tape.requiredString(places.pointee.actionType, name: "action.type")
                if tape.stringEquals(actionType, "custom") {
                    let name = try tape.requiredString(places.pointee.actionTargetName, name: "action.target.name")
                    guard let kind = ConventionName.kind(tape, name) else { return .unknown(tape.string(name)) }
                    mapping = .convention(kind)
                } else if tape.stringEquals(actionType, "tap") {
                    let target = try tape.optionalString(places.pointee.actionTargetName, name: "action.target.name")
                    mapping = .tap(target: target.map { tape.string($0) }, x: nil, y: nil)
                } else if tape.stringEquals(actionType, "back") {
                    mapping = .tap(target: "nav.back", x: nil, y: nil)
                } else if tape.stringEquals(actionType, "application_start") {
                    mapping = .launch
                } else {
                    return .unknown("action." + tape.string(actionType))
                }
            } else if tape.stringEquals(typeIndex, "vital") {
                let vitalType = tape.string(try tape.requiredString(places.pointee.vitalType, name: "vital.type"))
                guard vitalType == "app_launch" else { return .unknown("vital." + vitalType) }
                let metric = try tape.optionalString(places.pointee.vitalMetric, name: "vital.app_launch_metric").map { tape.string($0) }
                guard metric == "ttid" else { return .unknown("vital.app_launch.\(metric ?? "")") }
                if let prewarmed = places.pointee.vitalPrewarmed, tape[prewarmed].kind == .bool, tape[prewarmed].flag {
                    return .unknown("vital.app_launch.prewarmed")
                }
                guard let durationIndex = places.pointee.vitalDuration else { throw ImportProblem("missing vital.duration") }
                let duration = try tape.finiteNumber(durationIndex, name: "vital.duration")
                let envelope = try datadogEnvelope(places)
                // The vital is dated at the launch's start; the app is ready `duration` ns later. A
                // duration past any time in milliseconds (or one that takes `ts` past them) is refused:
                // converting it to an integer would stop the program.
                let milliseconds = duration / 1_000_000
                guard milliseconds.magnitude < 1e15,
                      case (let ready, false) = envelope.ts.addingReportingOverflow(Int64(milliseconds)) else {
                    throw ImportProblem("vital.duration is out of range", at: tape, durationIndex)
                }
                return .mapped(.ready(ts: ready), envelope, .object(skipDollar: false))
            } else if tape.stringEquals(typeIndex, "rum") {
                // No RUM event is of type `rum`: an events-API item's is, and this one holds no event inside.
                throw ImportProblem("the events-API item holds no RUM event (attributes.attributes is missing or not an object)")
            } else {
                return .unknown(tape.string(typeIndex))
            }
            return .mapped(mapping, try datadogEnvelope(places), .object(skipDollar: false))
        } catch {
            return .problem(error)
        }
    }

    /// Plans the layout of the line just read, which carried a convention event (a `custom` action):
    /// the event's `type` and `action.type` are checked on every line (`ConventionPlan`).
    func planDatadogLayout(_ envelope: ImportedEnvelope, _ fields: ImportedFields) {
        guard readsPlans, let layout = lineLayout, plans.kept(for: layout) == nil else { return }
        let places = datadogMemo.place(lineLayout) { datadogLinePlaces() }
        guard let type = places.pointee.type, let actionType = places.pointee.actionType,
              let name = places.pointee.actionTargetName, let date = places.pointee.date
        else { return }
        planLayout(name: name, time: .milliseconds(date), guards: [type, actionType], envelope, fields)
    }

    /// The envelope, checked in this order: the date (of the line's own value), then the kinds of the
    /// other members (`datadogEnvelopeKinds`), which lines of a layout whose line passed them pass too
    /// (`DatadogPlaces.checkedEnvelope`).
    private func datadogEnvelope(_ places: UnsafePointer<DatadogPlaces>) throws(ImportProblem) -> ImportedEnvelope {
        guard let date = places.pointee.date else { throw ImportProblem("missing date") }
        guard tape[date].kind == .number, tape[date].flag, let ms = tape.integer(date) else {
            throw ImportProblem("date is not an integer of milliseconds", at: tape, date)
        }
        var envelope: ImportedEnvelope
        if let checked = places.pointee.checkedEnvelope { envelope = checked } else { envelope = try datadogEnvelopeKinds(places.pointee) }
        envelope.ts = ms
        return envelope
    }

    /// The envelope's members but its time, each checked to be of its kind: a function of the kinds
    /// of the line's values and of where its members are, nothing else.
    private func datadogEnvelopeKinds(_ places: DatadogPlaces) throws(ImportProblem) -> ImportedEnvelope {
        var envelope = ImportedEnvelope()
        envelope.session = try tape.requiredString(places.sessionId, name: "session.id")
        envelope.device = try tape.optionalString(places.usrAnonymousId, name: "usr.anonymous_id")
        envelope.appVersion = try tape.optionalString(places.version, name: "version")
        envelope.osVersion = try tape.optionalString(places.osVersion, name: "os.version")
        envelope.screen = try tape.optionalString(places.viewName, name: "view.name")
        envelope.id = try tape.optionalString(places.actionId, name: "action.id")
        if let context = places.context {
            guard tape[context].kind == .object else { throw ImportProblem("context is not an object", at: tape, context) }
            envelope.fields = context
        }
        return envelope
    }
}
