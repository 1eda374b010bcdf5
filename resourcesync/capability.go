package resourcesync

// Namespaces of ResourceSync documents.
const (
	NamespaceSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	NamespaceRS      = "http://www.openarchives.org/rs/terms/"
)

// Capability is the value of the capability attribute of rs:md: what a
// document is (top level) or what the document an entry points at is.
type Capability string

// Capabilities defined by the core standard, the Framework Notification
// specification and the Archives specification.
const (
	CapDescription           Capability = "description"
	CapCapabilityList        Capability = "capabilitylist"
	CapResourceList          Capability = "resourcelist"
	CapResourceDump          Capability = "resourcedump"
	CapResourceDumpManifest  Capability = "resourcedump-manifest"
	CapChangeList            Capability = "changelist"
	CapChangeDump            Capability = "changedump"
	CapChangeDumpManifest    Capability = "changedump-manifest"
	CapFrameworkNotification Capability = "framework-notification"
	CapChangeNotification    Capability = "change-notification"
	CapResourceListArchive   Capability = "resourcelist-archive"
	CapResourceDumpArchive   Capability = "resourcedump-archive"
	CapChangeListArchive     Capability = "changelist-archive"
	CapChangeDumpArchive     Capability = "changedump-archive"
)

// Known reports whether c is one of the capabilities this package defines.
// Unknown capabilities are kept, never rejected: later specifications add
// values.
func (c Capability) Known() bool {
	switch c {
	case CapDescription, CapCapabilityList, CapResourceList, CapResourceDump,
		CapResourceDumpManifest, CapChangeList, CapChangeDump, CapChangeDumpManifest,
		CapFrameworkNotification, CapChangeNotification, CapResourceListArchive,
		CapResourceDumpArchive, CapChangeListArchive, CapChangeDumpArchive:
		return true
	}
	return false
}

// Name is the capability as a person reads it ("Resource List").
func (c Capability) Name() string {
	switch c {
	case CapDescription:
		return "Source Description"
	case CapCapabilityList:
		return "Capability List"
	case CapResourceList:
		return "Resource List"
	case CapResourceDump:
		return "Resource Dump"
	case CapResourceDumpManifest:
		return "Resource Dump Manifest"
	case CapChangeList:
		return "Change List"
	case CapChangeDump:
		return "Change Dump"
	case CapChangeDumpManifest:
		return "Change Dump Manifest"
	case CapFrameworkNotification:
		return "Framework Notification channel"
	case CapChangeNotification:
		return "Change Notification channel"
	case CapResourceListArchive:
		return "Resource List Archive"
	case CapResourceDumpArchive:
		return "Resource Dump Archive"
	case CapChangeListArchive:
		return "Change List Archive"
	case CapChangeDumpArchive:
		return "Change Dump Archive"
	case "":
		return "document without capability"
	}
	return string(c)
}

// IsChangeCapability reports whether documents of c carry from/until (change
// documents) rather than at/completed (snapshot documents).
func (c Capability) IsChangeCapability() bool {
	switch c {
	case CapChangeList, CapChangeDump, CapChangeDumpManifest,
		CapFrameworkNotification, CapChangeNotification:
		return true
	}
	return false
}

// Change is the value of the change attribute of an entry's rs:md.
type Change string

// Changes defined by the standard.
const (
	ChangeCreated Change = "created"
	ChangeUpdated Change = "updated"
	ChangeDeleted Change = "deleted"
)

// Known reports whether ch is created, updated or deleted.
func (ch Change) Known() bool {
	return ch == ChangeCreated || ch == ChangeUpdated || ch == ChangeDeleted
}

// Link relation types the standard uses.
const (
	RelUp           = "up"
	RelIndex        = "index"
	RelDescribedBy  = "describedby"
	RelContents     = "contents"
	RelDuplicate    = "duplicate"
	RelHub          = "hub"
	RelSelf         = "self"
	RelPatch        = "http://www.openarchives.org/rs/terms/patch"
	RelResourceSync = "resourcesync"
	RelAlternate    = "alternate"
	RelCollection   = "collection"
	RelMemento      = "memento"
	RelTimeGate     = "timegate"
	RelTimeMap      = "timemap"
	RelDescribes    = "describes"
	RelProfile      = "profile"
	RelCanonical    = "canonical"
	RelVia          = "via"
)
