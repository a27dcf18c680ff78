package provider

// House rules checked on the package's source (issue 23 §1 and §4): no function over
// maxFunctionLines lines except schemas, and one style for every diagnostic's summary.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// maxFunctionLines is the longest a function of internal/provider may be, from its `func` line to
// its closing brace. Schemas are exempt: they are one long literal, read attribute by attribute.
const maxFunctionLines = 60

// sourceFiles parses the package's non-test Go files.
func sourceFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if len(files) < 50 {
		t.Fatalf("parsed %d source files of internal/provider, want the package's 50 or more", len(files))
	}
	return fset, files
}

// longFunctions lists the functions of files longer than limit lines, schemas aside, and counts
// the functions it measured.
func longFunctions(fset *token.FileSet, files map[string]*ast.File, limit int) (long []string, measured int) {
	for name, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			measured++
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if lines > limit && fn.Name.Name != "Schema" {
				long = append(long, name+": "+fn.Name.Name)
			}
		}
	}
	return long, measured
}

func TestNoFunctionOverSixtyLines(t *testing.T) {
	fset, files := sourceFiles(t)
	long, measured := longFunctions(fset, files, maxFunctionLines)
	if measured < 500 {
		t.Fatalf("measured %d functions, want the package's 500 or more", measured)
	}
	for _, fn := range long {
		t.Errorf("%s is over %d lines: split it by what its parts do", fn, maxFunctionLines)
	}
	// The check can fail: a lower limit finds functions.
	if long, _ := longFunctions(fset, files, 40); len(long) == 0 {
		t.Error("no function over 40 lines either: the measure is broken")
	}
}

// properNouns may be capitalised inside a summary: product and feature names, instance states
// and editions the console spells so.
var properNouns = map[string]bool{"Buffer": true, "Pool": true, "Extension": true, "Basic-edition": true, "Running": true,
	"Stopped": true, "Prepaid": true, "Terraform": true, "High-availability": true}

// summaryStyleProblem says what is wrong with a diagnostic's summary, or "" when it is a short
// sentence-case title: one line of at most 100 characters, no trailing period, a capital or an
// identifier first (attribute names the summary is about, written as in the configuration), and
// no later word in Title Case (acronyms such as RDS and names such as MySQL are not Title Case).
func summaryStyleProblem(summary string, attribute string) string {
	switch {
	case summary == "":
		return "empty"
	case strings.ContainsAny(summary, "\n\t"):
		return "more than one line"
	case len(summary) > 100:
		return "over 100 characters"
	case strings.HasSuffix(summary, ".") || strings.HasSuffix(summary, ":"):
		return "ends with punctuation"
	}
	words := strings.Fields(summary)
	if first := words[0]; unicode.IsLower(rune(first[0])) && !strings.ContainsAny(first, "_.-0123456789") && first != attribute {
		return "starts in lower case with a word that is not an identifier"
	}
	for _, w := range words[1:] {
		w = strings.Trim(w, "(),:;'\"`")
		if w == "" || !unicode.IsUpper(rune(w[0])) || properNouns[w] {
			continue
		}
		if rest := w[1:]; rest == strings.ToLower(rest) && strings.IndexFunc(rest, unicode.IsLetter) >= 0 && !strings.ContainsAny(rest, "0123456789_") {
			return "Title Case word " + strconv.Quote(w)
		}
	}
	return ""
}

// literalSummaries returns, for every diagnostic the package raises with a literal summary, the
// literal text (the literal start of a concatenation) and where it is.
func literalSummaries(fset *token.FileSet, files map[string]*ast.File) map[string]string {
	summaryArg := map[string]int{"AddError": 0, "AddWarning": 0, "NewErrorDiagnostic": 0, "NewWarningDiagnostic": 0,
		"AddAttributeError": 1, "AddAttributeWarning": 1, "NewAttributeErrorDiagnostic": 1, "NewAttributeWarningDiagnostic": 1}
	found := map[string]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			i, ok := summaryArg[sel.Sel.Name]
			if !ok || len(call.Args) <= i {
				return true
			}
			if text, ok := literalStart(call.Args[i]); ok {
				found[fset.Position(call.Pos()).String()] = text
			}
			return true
		})
	}
	return found
}

// literalStart is a string literal, or the literal that starts a concatenation.
func literalStart(e ast.Expr) (string, bool) {
	for {
		bin, ok := e.(*ast.BinaryExpr)
		if !ok || bin.Op != token.ADD {
			break
		}
		e = bin.X
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return strings.TrimSpace(s), err == nil
}

// TestDiagnosticsShareOneStyle walks every diagnostic the provider can raise: each row of the rule
// table rendered with its examples, and each literal summary of this package. A summary is a short
// sentence-case title without a trailing period; an error row's detail ends with its fix.
func TestDiagnosticsShareOneStyle(t *testing.T) {
	rows := rdsservice.RuleTable()
	if len(rows) < 200 {
		t.Fatalf("%d rule table rows, want the table's 200 or more", len(rows))
	}
	for _, r := range rows {
		p := rdsservice.Raise(r.ID, "v", r.Examples()...)
		if why := summaryStyleProblem(p.Summary, r.Attribute); why != "" {
			t.Errorf("rule %s: summary %q is %s", r.ID, p.Summary, why)
		}
		if r.Severity == rdsservice.SeverityError && strings.TrimSpace(r.Fix) == "" {
			t.Errorf("rule %s: an error without a fix (the Fix column): %q", r.ID, p.Detail)
		}
	}
	fset, files := sourceFiles(t)
	literals := literalSummaries(fset, files)
	if len(literals) < 80 {
		t.Fatalf("found %d literal summaries, want the package's 80 or more", len(literals))
	}
	for at, text := range literals {
		if why := summaryStyleProblem(text, ""); why != "" {
			t.Errorf("%s: summary %q is %s", at, text, why)
		}
	}
	// The check can fail: the styles it refuses are refused.
	for _, bad := range []string{"Value Conversion Error", "Error reading RDS instance.", "", "error\nreading"} {
		if summaryStyleProblem(bad, "") == "" {
			t.Errorf("summaryStyleProblem accepts %q", bad)
		}
	}
}

// packageDocsWithEntryPoints are the packages whose doc comment names their entry points.
var packageDocsWithEntryPoints = []string{"provider", "rdsservice", "rdsapi", "simulator", "acssign"}

// docLink is a doc link ([Name] or [Type.Method]); fileRef a file the doc names ("(planner.go").
var (
	docLink = regexp.MustCompile(`\[([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?)\]`)
	fileRef = regexp.MustCompile(`\b([a-z0-9_]+\.go)\b`)
)

// TestPackageDocsNameTheirEntryPoints: each package's doc has an "Entry points:" list, and every
// identifier it links and every file it names exists, so the doc cannot go stale unnoticed.
func TestPackageDocsNameTheirEntryPoints(t *testing.T) {
	for _, name := range packageDocsWithEntryPoints {
		dir := filepath.Join("..", name)
		doc, decls, files := packageDoc(t, dir)
		if !strings.Contains(doc, "Entry points:") {
			t.Errorf("package %s: its doc has no \"Entry points:\" list", name)
		}
		links := docLink.FindAllStringSubmatch(doc, -1)
		if len(links) < 3 {
			t.Errorf("package %s: its doc links %d identifiers, want its entry points (3 or more)", name, len(links))
		}
		for _, l := range links {
			if !decls[l[1]] {
				t.Errorf("package %s: its doc links [%s], which the package does not declare", name, l[1])
			}
		}
		for _, f := range fileRef.FindAllStringSubmatch(doc, -1) {
			if !files[f[1]] && f[1] != "main.go" {
				t.Errorf("package %s: its doc names %s, which is not one of its files", name, f[1])
			}
		}
	}
}

// packageDoc reads a package's doc comment, its top-level declarations (methods as Type.Method)
// and its file names.
func packageDoc(t *testing.T, dir string) (string, map[string]bool, map[string]bool) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	var doc strings.Builder
	decls, files := map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range names {
		files[filepath.Base(path)] = true
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
		for name := range declaredNames(f) {
			decls[name] = true
		}
	}
	return doc.String(), decls, files
}

// declaredNames lists a file's top-level names, methods as Type.Method.
func declaredNames(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				out[d.Name.Name] = true
				continue
			}
			typ := d.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				out[id.Name+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}
