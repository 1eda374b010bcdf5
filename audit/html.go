package audit

import (
	"fmt"
	"html/template"
	"io"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Page is what the HTML report says besides the Report: the repair
// command, the mirror audited, when and by which version of the tool (a
// page kept for later must say what it describes).
type Page struct {
	Repair  string    // the command that repairs every difference; GenericRepair when empty
	Mirror  string    // the mirror's path
	Created time.Time // when the audit ran
	Tool    string    // "resync-dest v1.2.3"
}

// WriteHTML writes the report as one self-contained HTML page (inline
// style, no scripts, nothing fetched): the verdict and counts, each set,
// then a table per kind of difference and the errors, and the repair
// command (repair, or GenericRepair when it is ""). Every value is
// escaped (html/template), whatever a file in the mirror is named. It
// returns the first write error; it only reads the report.
func (r *Report) WriteHTML(w io.Writer, p Page) error {
	t, err := template.New("report").Funcs(template.FuncMap{
		"datetime": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return resourcesync.FormatDatetime(t)
		},
	}).Parse(htmlPage)
	if err != nil {
		return fmt.Errorf("audit report template: %w", err)
	}
	data := struct {
		*Report
		Page
		Verdict string
		Advice  string
		Created string
	}{Report: r, Page: p, Verdict: r.Verdict(), Advice: r.RepairAdvice()}
	if !p.Created.IsZero() {
		data.Created = p.Created.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if data.Repair == "" {
		data.Repair = GenericRepair
	}
	if err := t.Execute(w, data); err != nil {
		return fmt.Errorf("write audit report: %w", err)
	}
	return nil
}

// htmlPage is the page WriteHTML renders; html/template escapes every
// value in its context.
const htmlPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>resync-dest audit of {{.Source}}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 78em; padding: 0 1em; color: #1b1b1b; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
.verdict { padding: .7em 1em; border-radius: 4px; font-weight: 600; }
.ok { background: #e3f4e1; border-left: 6px solid #2e7d32; }
.bad { background: #fdecea; border-left: 6px solid #c62828; }
table { border-collapse: collapse; width: 100%; margin: .5em 0; }
th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
th { background: #f4f4f4; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
code, .path, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; word-break: break-all; }
pre { background: #f4f4f4; padding: .7em 1em; white-space: pre-wrap; }
.note { color: #555; }
</style>
</head>
<body>
<h1>Audit of <code>{{.Source}}</code></h1>
<p class="note">Mirror <code>{{.Mirror}}</code>{{with .Created}}, audited {{.}}{{end}}{{with .Tool}}, by {{.}}{{end}}</p>
<p class="verdict {{if .InSync}}ok{{else}}bad{{end}}">{{.Verdict}}</p>
{{with .Counts}}
<table>
<tr><th class="n">listed</th><th class="n">in sync</th><th class="n">missing</th><th class="n">extra</th><th class="n">changed</th><th class="n">errors</th><th class="n">unverifiable</th><th class="n">skipped</th></tr>
<tr><td class="n">{{.Listed}}</td><td class="n">{{.InSync}}</td><td class="n">{{.Missing}}</td><td class="n">{{.Extra}}</td><td class="n">{{.Changed}}</td><td class="n">{{.Errors}}</td><td class="n">{{.Unverifiable}}</td><td class="n">{{.Skipped}}</td></tr>
</table>
{{if .Unlisted}}<p class="note">{{.Unlisted}} more differences or errors are counted but not listed below.</p>{{end}}
{{end}}
{{if .Counts.Differences}}
<h2>Repair</h2>
<p>{{.Advice}}</p>
<pre>{{.Repair}}</pre>
{{end}}
<h2>Sets of resources</h2>
<table>
<tr><th>Capability List</th><th>compared with</th><th>method</th><th class="n">listed</th><th class="n">in sync</th><th class="n">missing</th><th class="n">extra</th><th class="n">changed</th><th class="n">errors</th></tr>
{{range .Sets}}
<tr><td class="path">{{.CapabilityList}}</td>
<td>{{if .ResourceList}}Resource List <span class="path">{{.ResourceList}}</span>{{with datetime .At}} at {{.}}{{end}}{{end}}
{{if .ChangeList}}<br>brought forward with {{.ChangesApplied}} change(s) from <span class="path">{{.ChangeList}}</span>{{with datetime .Through}} through {{.}}{{end}}{{end}}
{{range .Warnings}}<br><span class="note">warning: {{.}}</span>{{end}}
{{if .Error}}<br><strong>error:</strong> {{.Error}}{{end}}</td>
<td>{{.Method}}</td>
{{with .Counts}}<td class="n">{{.Listed}}</td><td class="n">{{.InSync}}</td><td class="n">{{.Missing}}</td><td class="n">{{.Extra}}</td><td class="n">{{.Changed}}</td><td class="n">{{.Errors}}</td>{{end}}</tr>
{{end}}
</table>
{{if .Missing}}
<h2>Missing: the Source has them, the mirror does not ({{len .Missing}})</h2>
<table>
<tr><th>path</th><th>URI</th></tr>
{{range .Missing}}<tr><td class="path">{{.Path}}</td><td class="path">{{.URI}}</td></tr>
{{end}}</table>
{{end}}
{{if .Extra}}
<h2>Extra: in the mirror, not listed by the Source ({{len .Extra}})</h2>
<table>
<tr><th>path</th><th>URI</th></tr>
{{range .Extra}}<tr><td class="path">{{.Path}}</td><td class="path">{{if .URI}}{{.URI}}{{else}}<span class="note">not written by resync-dest</span>{{end}}</td></tr>
{{end}}</table>
{{end}}
{{if .Changed}}
<h2>Changed: the local copy differs from the Source ({{len .Changed}})</h2>
<table>
<tr><th>path</th><th>differs in</th><th>expected (Source)</th><th>actual (mirror)</th><th>URI</th></tr>
{{range .Changed}}<tr><td class="path">{{.Path}}</td><td>{{.Reason}}</td><td class="path">{{.Expected}}</td><td class="path">{{.Actual}}</td><td class="path">{{.URI}}</td></tr>
{{end}}</table>
{{end}}
{{if .Errors}}
<h2>Errors: not compared ({{len .Errors}})</h2>
<table>
<tr><th>about</th><th>error</th></tr>
{{range .Errors}}<tr><td class="path">{{.Subject}}</td><td>{{.Message}}</td></tr>
{{end}}</table>
{{end}}
</body>
</html>
`
