package simulator

import (
	"fmt"
	"regexp"
	"slices"
	"time"
)

// SeedInstance describes a pre-existing instance planted with AddInstance (a test hook for states
// the API cannot produce, such as an instance bought before 2025-05-14).
type SeedInstance struct {
	ID              string // optional; generated when empty
	Engine          string
	EngineVersion   string
	DBInstanceClass string
	Storage         int64
	StorageType     string
	Category        string
	// PurchaseTime is the product-line date of rule 2 and the creation time; now when zero.
	PurchaseTime       time.Time
	ProductTypeChanged bool
	OptimizedWrites    bool
	MasterID           string // the primary, for a read-only instance
	// BackupRetention, when set, is the data backup retention (days) the instance has had since its
	// creation, so that its automatic sets reach that far back.
	BackupRetention int64
}

var seedIDPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{1,63}$`)

// AddInstance plants a Running instance and returns its id. OptimizedWrites on an ineligible
// instance is refused, as the cloud never shows that combination.
func (s *Simulator) AddInstance(seed SeedInstance) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.addInstanceLocked(seed)
	if err != nil {
		return "", err
	}
	return id, s.saveLocked()
}

func (s *Simulator) addInstanceLocked(seed SeedInstance) (string, error) {
	now := s.now()
	engine := canonicalEngine(seed.Engine)
	switch {
	case engine == "":
		return "", fmt.Errorf("simulator: seed engine %q is not one of MySQL, PostgreSQL, SQLServer, MariaDB", seed.Engine)
	case !validVersion(engine, seed.EngineVersion):
		return "", fmt.Errorf("simulator: seed version %q is not a %s version", seed.EngineVersion, engine)
	case !validClass(engine, seed.DBInstanceClass):
		return "", fmt.Errorf("simulator: seed class %q is not a %s class", seed.DBInstanceClass, engine)
	}
	storageType := seed.StorageType
	if storageType == "" {
		storageType = "cloud_essd"
	}
	if !slices.Contains(storageTypes, storageType) {
		return "", fmt.Errorf("simulator: seed storage type %q is unknown", storageType)
	}
	storage := seed.Storage
	if storage == 0 {
		storage = 100
	}
	if !validStorage(storage, storageType) {
		return "", fmt.Errorf("simulator: seed storage %d GB is outside the range for %s", storage, storageType)
	}
	category := seed.Category
	if category == "" {
		category = "HighAvailability"
	}
	if !slices.Contains(categories, category) {
		return "", fmt.Errorf("simulator: seed category %q is unknown", category)
	}
	purchase := seed.PurchaseTime.UTC()
	if seed.PurchaseTime.IsZero() {
		purchase = now
	}
	id := seed.ID
	if id == "" {
		id = s.newID(engine, seed.MasterID != "")
	}
	if !seedIDPattern.MatchString(id) {
		return "", fmt.Errorf("simulator: seed id %q is not a valid instance id", id)
	}
	if _, taken := s.state.Instances[id]; taken {
		return "", fmt.Errorf("simulator: instance %s already exists", id)
	}
	in := &instance{
		ID: id, RegionID: s.opts.Region, ZoneID: s.opts.Region + "-i", Engine: engine, EngineVersion: seed.EngineVersion,
		Class: seed.DBInstanceClass, Storage: storage, StorageType: storageType, Category: category,
		PayType: "Postpaid", NetType: "Intranet", NetworkType: "VPC", VpcID: "vpc-simulator", VSwitchID: "vsw-simulator",
		Port: defaultPort(engine), SecurityIPs: map[string]string{"default": "127.0.0.1"}, MaintainTime: "18:00Z-22:00Z",
		CreationTime: purchase, PurchaseTime: purchase, ProductTypeChanged: seed.ProductTypeChanged,
		Optimized: seed.OptimizedWrites, ShownOptimized: seed.OptimizedWrites, Status: statusRunning,
	}
	if seed.MasterID != "" {
		primary, ok := s.state.Instances[seed.MasterID]
		if !ok || primary.MasterID != "" || primary.Engine != engine {
			return "", fmt.Errorf("simulator: seed primary %q is not an existing %s primary instance", seed.MasterID, engine)
		}
		in.MasterID = primary.ID
	}
	if in.Optimized && !in.eligible() {
		return "", fmt.Errorf("simulator: seed %s cannot have OptimizedWrites on: %s", id, in.notEligibleReason())
	}
	if seed.BackupRetention > 0 {
		in.policy().Retention = seed.BackupRetention
	}
	s.state.Instances[id] = in
	return id, nil
}

// plantSeeds adds the built-in pre-existing instances once per state.
func (s *Simulator) plantSeeds() error {
	bought2024 := time.Date(2024, 6, 1, 8, 0, 0, 0, time.UTC)
	seeds := []SeedInstance{
		{ID: "rm-seedx86legacy", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: bought2024},
		{ID: "rm-seedyitian2024", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2m.medium.2c", StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: bought2024, OptimizedWrites: true},
		{ID: "rm-seedbasic", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.1", StorageType: "cloud_essd", Category: "Basic", PurchaseTime: time.Date(2025, 8, 1, 8, 0, 0, 0, time.UTC)},
		{ID: "pgm-seedpostgres", Engine: "PostgreSQL", EngineVersion: "16.0", DBInstanceClass: "pg.n2.medium.2c", StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: bought2024},
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, seed := range seeds {
		if _, exists := s.state.Instances[seed.ID]; exists {
			continue
		}
		if _, err := s.addInstanceLocked(seed); err != nil {
			return err
		}
	}
	s.state.Seeded = true
	return nil
}
