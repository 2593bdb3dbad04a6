/// What shows a stage: its session, which sets itself as the stage's ``Stage/host`` when
/// it shows the stage, and is told through it what the stage's bindings did. One method
/// for each thing a binding tells: values and keyed rows change (``stageChanged()``),
/// components come and go, client commands and uploads start.
package protocol StageHost: AnyObject {
    /// A slot or a keyed collection changed: the session diffs the stage at the end of
    /// its turn.
    func stageChanged()
    /// An output produced a value a slot (or a hook's message) cannot hold; `message`
    /// says which. The session logs it and tells the page.
    func stageFailed(_ message: String)
    /// The stage runs `commands` in the page.
    func stageRuns(_ commands: [ClientCommand])
    /// A component was placed in the stage at `host`: the session mounts it.
    func stagePlaced(_ component: Stage, at host: ComponentHost)
    /// Components were removed from the stage (and cancelled): the session unmounts them.
    /// Those one list's changes remove come together.
    func stageRemoved(_ components: [Stage])
    /// Where the stage's upload bindings start their files; nil refuses them.
    var uploadBroker: (any UploadBroker)? { get }
}
