package simulator

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"sort"
	"strings"
)

// answerFormat is how one request is answered: JSON, or XML in the real service's shape.
type answerFormat int

const (
	formatJSON answerFormat = iota
	formatXML
)

// requestFormat picks the answer format: XML for Format=XML (any case) and for a V1 request
// (Signature parameter, no Authorization header) that names no Format, which is the real service's
// V1 default; JSON otherwise (V3's default, and requests too broken to tell).
func requestFormat(r *http.Request, p params) answerFormat {
	f := strings.TrimSpace(p.get("Format"))
	switch {
	case strings.EqualFold(f, "XML"):
		return formatXML
	case f == "" && p.has("Signature") && r.Header.Get("Authorization") == "":
		return formatXML
	}
	return formatJSON
}

// writeAnswer sends body as JSON, or as XML under the root element (<ActionResponse> for a
// success, <Error> for an error).
func writeAnswer(w http.ResponseWriter, f answerFormat, status int, root string, body any) {
	if f != formatXML {
		writeJSON(w, status, body)
		return
	}
	data, err := encodeXML(root, body)
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(xml.Header + "<Error><Code>InternalError</Code><Message>response encoding failed</Message></Error>")
	}
	w.Header().Set("Content-Type", "text/xml;charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// encodeXML renders a JSON-shaped answer the way the real service does: an object's members
// become child elements (in name order), an array under a name becomes that element repeated
// once per item (so {"Items":{"DBInstance":[a,b]}} is <Items><DBInstance>a</DBInstance>
// <DBInstance>b</DBInstance></Items>), scalars become text. The body goes through JSON first so
// that the XML carries exactly the values the JSON answer would.
func encodeXML(root string, body any) ([]byte, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	if err := writeXMLElement(&b, root, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeXMLElement(b *bytes.Buffer, name string, v any) error {
	if items, ok := v.([]any); ok {
		for _, item := range items {
			if err := writeXMLElement(b, name, item); err != nil {
				return err
			}
		}
		return nil
	}
	b.WriteString("<" + name + ">")
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := writeXMLElement(b, k, v[k]); err != nil {
				return err
			}
		}
	case nil:
	case string:
		if err := xml.EscapeText(b, []byte(v)); err != nil {
			return err
		}
	case json.Number:
		b.WriteString(v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	}
	b.WriteString("</" + name + ">")
	return nil
}
