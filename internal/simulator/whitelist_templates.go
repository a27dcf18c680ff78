package simulator

import (
	"slices"
	"sort"
	"strings"
)

// Whitelist templates (README "Whitelist templates"): account-wide IP lists linked to instances.
// ModifyWhitelistTemplate creates (no TemplateId), changes and deletes (empty IpWhitelist) them;
// the entries of a linked template admit clients like the instance's own IP arrays and count
// against its 1,000 entries.

func init() {
	for name, h := range map[string]handler{
		"ModifyWhitelistTemplate":                 (*Simulator).modifyWhitelistTemplate,
		"DescribeWhitelistTemplate":               (*Simulator).describeWhitelistTemplate,
		"DescribeAllWhitelistTemplate":            (*Simulator).describeAllWhitelistTemplate,
		"AttachWhitelistTemplateToInstance":       (*Simulator).attachWhitelistTemplate,
		"DetachWhitelistTemplateToInstance":       (*Simulator).detachWhitelistTemplate,
		"DescribeInstanceLinkedWhitelistTemplate": (*Simulator).describeInstanceLinkedWhitelistTemplate,
	} {
		actions[name] = h
	}
}

// whitelistTemplate is one template; Linked are the instances it is attached to.
type whitelistTemplate struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	IPs    string   `json:"ips"`
	Linked []string `json:"linked,omitempty"`
}

// templateAnswer wraps Data as the template actions answer (their reference examples).
func templateAnswer(data map[string]any) map[string]any {
	return map[string]any{"Success": true, "Code": "200", "Message": "success", "HttpStatusCode": 200, "Data": data}
}

func (t *whitelistTemplate) wire() map[string]any {
	return map[string]any{"Id": t.ID, "TemplateId": t.ID, "TemplateName": t.Name, "Ips": t.IPs, "UserId": 1}
}

// checkOptionalRegion accepts an absent RegionId (the classic SDK's models of these actions have none).
func (s *Simulator) checkOptionalRegion(p params) *apiError {
	if strings.TrimSpace(p.get("RegionId")) == "" {
		return nil
	}
	return s.checkRegion(p)
}

func (s *Simulator) lookupTemplate(p params) (*whitelistTemplate, *apiError) {
	id, ok, e := p.integer("TemplateId")
	if e != nil {
		return nil, e
	}
	if !ok {
		return nil, errMissing("TemplateId")
	}
	t := s.state.Templates[id]
	if t == nil {
		return nil, newErr(404, "InvalidTemplateId.NotFound", "The whitelist template %d does not exist.", id)
	}
	return t, nil
}

// modifyWhitelistTemplate creates, changes or deletes a template. Names are unique per account
// (assumption WT1); a change that would take a linked instance past 1,000 entries is refused.
func (s *Simulator) modifyWhitelistTemplate(c *call) (map[string]any, *apiError) {
	p := c.p
	if e := s.checkOptionalRegion(p); e != nil {
		return nil, e
	}
	name, e := p.required("TemplateName")
	if e != nil {
		return nil, e
	}
	var t *whitelistTemplate
	if _, given, _ := p.integer("TemplateId"); given {
		if t, e = s.lookupTemplate(p); e != nil {
			return nil, e
		}
	}
	raw := strings.TrimSpace(p.get("IpWhitelist"))
	if raw == "" {
		if t == nil {
			return nil, errMissing("IpWhitelist")
		}
		delete(s.state.Templates, t.ID)
		c.dirty = true
		return templateAnswer(map[string]any{"Status": "ok"}), nil
	}
	ips, e := validateIPList("IpWhitelist", raw)
	if e != nil {
		return nil, e
	}
	for _, other := range s.state.Templates {
		if other.Name == name && other != t {
			return nil, newErr(400, "InvalidTemplateName.Duplicate", "A whitelist template named %q already exists.", truncate(name))
		}
	}
	if t == nil {
		s.state.NextTemplate++
		t = &whitelistTemplate{ID: s.state.NextTemplate}
		if s.state.Templates == nil {
			s.state.Templates = map[int64]*whitelistTemplate{}
		}
		s.state.Templates[t.ID] = t
	} else if e := s.templateQuota(t, len(splitList(ips))); e != nil {
		return nil, e
	}
	t.Name, t.IPs = name, ips
	c.dirty = true
	return templateAnswer(map[string]any{"Status": "ok"}), nil
}

// templateQuota refuses entries that would take an instance linked to t past its limit.
func (s *Simulator) templateQuota(t *whitelistTemplate, entries int) *apiError {
	for _, id := range t.Linked {
		if in := s.state.Instances[id]; in != nil && len(s.allowedClientsExcept(in, t.ID))+entries > maxIPEntries {
			return newErr(400, "QuotaExceeded.SecurityIps", "Instance %s would have more than %d IP addresses and CIDR blocks with this template.", in.ID, maxIPEntries)
		}
	}
	return nil
}

func (s *Simulator) describeWhitelistTemplate(c *call) (map[string]any, *apiError) {
	if e := s.checkOptionalRegion(c.p); e != nil {
		return nil, e
	}
	t, e := s.lookupTemplate(c.p)
	if e != nil {
		return nil, e
	}
	return templateAnswer(map[string]any{"Template": t.wire()}), nil
}

// describeAllWhitelistTemplate pages the templates by id; TemplateName filters exactly, or by
// substring with FuzzySearch=true.
func (s *Simulator) describeAllWhitelistTemplate(c *call) (map[string]any, *apiError) {
	p := c.p
	if e := s.checkOptionalRegion(p); e != nil {
		return nil, e
	}
	page, size, e := templatePaging(p)
	if e != nil {
		return nil, e
	}
	fuzzy, e := p.boolean("FuzzySearch")
	if e != nil {
		return nil, e
	}
	name := p.get("TemplateName")
	var matched []*whitelistTemplate
	for _, t := range s.state.Templates {
		if name == "" || t.Name == name || fuzzy && strings.Contains(t.Name, name) {
			matched = append(matched, t)
		}
	}
	sort.Slice(matched, func(i, j int) bool { return matched[i].ID < matched[j].ID })
	items := []map[string]any{}
	for i := (page - 1) * size; i < min(page*size, int64(len(matched))); i++ {
		items = append(items, matched[i].wire())
	}
	total := (int64(len(matched)) + size - 1) / size
	return templateAnswer(map[string]any{"Templates": items, "CurrPageNumbers": page, "TotalPageNumbers": total,
		"MaxRecordsPerPage": size, "TotalRecords": len(matched), "HasNext": page < total, "HasPrev": page > 1}), nil
}

// templatePaging reads PageNumbers and MaxRecordsPerPage, both required by the reference.
func templatePaging(p params) (page, size int64, e *apiError) {
	page, ok, e := p.integer("PageNumbers")
	if e == nil && (!ok || page < 1) {
		e = errInvalid("PageNumbers", "must be 1 or more")
	}
	if e != nil {
		return 0, 0, e
	}
	size, ok, e = p.integer("MaxRecordsPerPage")
	if e == nil && (!ok || size < 1 || size > 100) {
		e = errInvalid("MaxRecordsPerPage", "must be 1 to 100")
	}
	return page, size, e
}

// templateLink finds the template and the instance (InsName) of an attach or detach.
func (s *Simulator) templateLink(c *call, action string) (*whitelistTemplate, *instance, *apiError) {
	if e := s.checkOptionalRegion(c.p); e != nil {
		return nil, nil, e
	}
	t, e := s.lookupTemplate(c.p)
	if e != nil {
		return nil, nil, e
	}
	name, e := c.p.required("InsName")
	if e != nil {
		return nil, nil, e
	}
	in := s.state.Instances[name]
	if in == nil {
		return nil, nil, errNotFound(name)
	}
	if e := in.writable(action); e != nil {
		return nil, nil, e
	}
	return t, in, nil
}

func (s *Simulator) attachWhitelistTemplate(c *call) (map[string]any, *apiError) {
	t, in, e := s.templateLink(c, "AttachWhitelistTemplateToInstance")
	if e != nil {
		return nil, e
	}
	if !slices.Contains(t.Linked, in.ID) {
		if len(s.allowedClientsExcept(in, t.ID))+len(splitList(t.IPs)) > maxIPEntries {
			return nil, newErr(400, "QuotaExceeded.SecurityIps", "Instance %s would have more than %d IP addresses and CIDR blocks with this template.", in.ID, maxIPEntries)
		}
		t.Linked = append(t.Linked, in.ID)
		c.dirty = true
	}
	return templateAnswer(map[string]any{"Status": "ok"}), nil
}

// detachWhitelistTemplate unlinks the template; one not linked is accepted (assumption WT2).
func (s *Simulator) detachWhitelistTemplate(c *call) (map[string]any, *apiError) {
	t, in, e := s.templateLink(c, "DetachWhitelistTemplateToInstance")
	if e != nil {
		return nil, e
	}
	if i := slices.Index(t.Linked, in.ID); i >= 0 {
		t.Linked = slices.Delete(t.Linked, i, i+1)
		c.dirty = true
	}
	return templateAnswer(map[string]any{"Status": "ok"}), nil
}

func (s *Simulator) describeInstanceLinkedWhitelistTemplate(c *call) (map[string]any, *apiError) {
	if e := s.checkOptionalRegion(c.p); e != nil {
		return nil, e
	}
	name, e := c.p.required("InsName")
	if e != nil {
		return nil, e
	}
	if s.state.Instances[name] == nil {
		return nil, errNotFound(name)
	}
	items := []map[string]any{}
	for _, t := range s.linkedTemplates(name) {
		items = append(items, t.wire())
	}
	return templateAnswer(map[string]any{"InsName": name, "Templates": items}), nil
}

// linkedTemplates are the templates linked to the instance, by id.
func (s *Simulator) linkedTemplates(id string) []*whitelistTemplate {
	var out []*whitelistTemplate
	for _, t := range s.state.Templates {
		if slices.Contains(t.Linked, id) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// allowedClients are the addresses and blocks that may connect to the instance: its IP arrays
// and its linked templates.
func (s *Simulator) allowedClients(in *instance) []string { return s.allowedClientsExcept(in, 0) }

// allowedClientsExcept is allowedClients without the template skip (0: none skipped).
func (s *Simulator) allowedClientsExcept(in *instance, skip int64) []string {
	out := splitList(joinIPs(in.SecurityIPs))
	for _, t := range s.linkedTemplates(in.ID) {
		if t.ID != skip {
			out = append(out, splitList(t.IPs)...)
		}
	}
	return out
}
