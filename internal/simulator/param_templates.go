package simulator

import (
	"fmt"
	"slices"
	"strings"
)

// paramTemplate is one parameter of the simulated default template (DescribeParameterTemplates).
// Defaults, ranges and restart flags follow Alibaba's RDS MySQL parameter documentation and the
// MySQL reference manual; README.md ("Parameters") lists the sources and the assumptions.
type paramTemplate struct {
	name string
	// def is the default: a literal, or a formula such as {DBInstanceClassMemory*3/4}.
	def string
	// check is the CheckingCode: "[min-max]" or "[a|b|c]".
	check string
	// restart: a change takes effect only after a restart (ForceRestart).
	restart bool
	// modifiable: users may change it (ForceModify).
	modifiable bool
	// formula: the value may also be {DBInstanceClassMemory*X/Y}, at most 8/10 of the memory.
	formula bool
	desc    string
}

// paramRow is a template row for both 5.7 and 8.0 unless only is set; def57/def80 override def
// for one version.
type paramRow struct {
	paramTemplate
	only         string
	def57, def80 string
}

func online(name, def, check, desc string) paramRow {
	return paramRow{paramTemplate: paramTemplate{name: name, def: def, check: check, modifiable: true, desc: desc}}
}

func needsRestart(name, def, check, desc string) paramRow {
	return paramRow{paramTemplate: paramTemplate{name: name, def: def, check: check, restart: true, modifiable: true, desc: desc}}
}

func fixed(name, def, check, desc string) paramRow {
	return paramRow{paramTemplate: paramTemplate{name: name, def: def, check: check, restart: true, desc: desc}}
}

func (r paramRow) versions(def57, def80 string) paramRow { r.def57, r.def80 = def57, def80; return r }
func (r paramRow) onlyIn(version string) paramRow        { r.only = version; return r }
func (r paramRow) withFormula() paramRow                 { r.formula = true; return r }

const maxUint64 = "18446744073709551615"

// mysqlParamRows is the MySQL template, most commonly tuned parameters first.
var mysqlParamRows = []paramRow{
	online("innodb_buffer_pool_size", "{DBInstanceClassMemory*3/4}", "[134217728-"+maxUint64+"]",
		"The size in bytes of the InnoDB buffer pool; a byte count or {DBInstanceClassMemory*X/Y} up to 8/10 of the memory.").withFormula(),
	online("innodb_io_capacity", "20000", "[100-"+maxUint64+"]", "The I/O operations per second available to InnoDB background tasks."),
	online("innodb_io_capacity_max", "40000", "[100-"+maxUint64+"]", "The maximum IOPS InnoDB background tasks may use when flushing falls behind."),
	online("innodb_flush_neighbors", "0", "[0|1|2]", "Whether flushing a page also flushes the other dirty pages of its extent (0: off, useful on SSD)."),
	online("sync_binlog", "1", "[0-4294967295]", "How many binary log commit groups are written before the binary log is synchronised to disk."),
	online("innodb_flush_log_at_trx_commit", "1", "[0|1|2]", "How the redo log is written and flushed at commit (1: at every commit)."),
	fixed("innodb_doublewrite", "ON", "[ON|OFF]", "The InnoDB doublewrite buffer. Managed by the cloud: OFF while 16K atomic write is on, ON otherwise."),
	needsRestart("innodb_log_file_size", "1048576000", "[4194304-"+maxUint64+"]", "The size in bytes of each redo log file.").onlyIn("5.7"),
	needsRestart("innodb_buffer_pool_instances", "8", "[1-64]", "The number of regions the InnoDB buffer pool is divided into."),
	needsRestart("innodb_read_io_threads", "4", "[1-64]", "The number of InnoDB read I/O threads."),
	needsRestart("innodb_write_io_threads", "4", "[1-64]", "The number of InnoDB write I/O threads."),
	needsRestart("innodb_purge_threads", "1", "[1-32]", "The number of InnoDB purge threads.").versions("1", "4"),
	needsRestart("innodb_page_cleaners", "4", "[1-64]", "The number of threads that flush dirty pages from buffer pool instances."),
	online("innodb_lru_scan_depth", "1024", "[100-"+maxUint64+"]", "How far down the buffer pool LRU list the page cleaner scans for dirty pages."),
	online("innodb_adaptive_hash_index", "OFF", "[ON|OFF]", "Whether the InnoDB adaptive hash index is enabled."),
	online("innodb_adaptive_flushing", "ON", "[ON|OFF]", "Whether InnoDB adapts the flushing rate to the workload."),
	online("innodb_max_dirty_pages_pct", "75", "[0-99]", "The percentage of dirty pages InnoDB tries not to exceed.").versions("75", "90"),
	online("innodb_lock_wait_timeout", "50", "[1-1073741824]", "Seconds a transaction waits for a row lock before giving up."),
	needsRestart("innodb_autoinc_lock_mode", "2", "[0|1|2]", "The lock mode for generating auto-increment values.").versions("1", "2"),
	needsRestart("innodb_open_files", "3000", "[10-2147483647]", "The maximum number of .ibd files InnoDB keeps open at once."),
	online("innodb_thread_concurrency", "0", "[0-1000]", "The maximum number of threads inside InnoDB (0: unlimited)."),
	needsRestart("innodb_sort_buffer_size", "1048576", "[65536-67108864]", "The sort buffer size in bytes used when creating InnoDB indexes."),
	online("innodb_online_alter_log_max_size", "134217728", "[65536-"+maxUint64+"]", "The upper limit in bytes of the log used during online DDL."),
	online("innodb_print_all_deadlocks", "OFF", "[ON|OFF]", "Whether every deadlock is recorded in the error log."),
	online("innodb_stats_persistent_sample_pages", "20", "[1-"+maxUint64+"]", "The number of index pages sampled for persistent statistics."),
	online("innodb_change_buffering", "all", "[none|inserts|deletes|changes|purges|all]", "Which operations InnoDB change buffering applies to."),
	online("innodb_old_blocks_time", "1000", "[0-4294967295]", "Milliseconds a block inserted into the old sublist must stay there before it may move to the new sublist."),
	fixed("innodb_page_size", "16384", "[4096|8192|16384|32768|65536]", "The InnoDB page size; chosen when the instance is initialised."),
	fixed("innodb_flush_method", "O_DIRECT", "[fsync|O_DSYNC|O_DIRECT]", "The method used to flush data files; set by the cloud for its storage."),
	fixed("innodb_data_file_path", "ibdata1:200M:autoextend", "[ibdata1:200M:autoextend]", "The system tablespace data file; set by the cloud."),
	online("max_connections", "2000", "[1-100000]", "The maximum number of concurrent client connections."),
	online("max_allowed_packet", "1073741824", "[16384-1073741824]", "The maximum size in bytes of one packet or generated string."),
	online("wait_timeout", "86400", "[1-31536000]", "Seconds the server waits for activity on a non-interactive connection before closing it."),
	online("max_prepared_stmt_count", "16382", "[0-1048576]", "The maximum number of prepared statements on the server (the database proxy needs it equal on the primary and its read-only instances)."),
	online("interactive_timeout", "7200", "[10-86400]", "Seconds the server waits for activity on an interactive connection before closing it."),
	online("long_query_time", "1", "[0.03-10]", "Seconds after which a query counts as slow."),
	online("slow_query_log", "ON", "[ON|OFF]", "Whether the slow query log is enabled."),
	online("log_queries_not_using_indexes", "OFF", "[ON|OFF]", "Whether queries that use no index are logged as slow."),
	online("binlog_format", "ROW", "[ROW|STATEMENT|MIXED]", "The binary logging format."),
	online("binlog_row_image", "FULL", "[FULL|MINIMAL|NOBLOB]", "How much of each row is written to a row-based binary log."),
	online("binlog_cache_size", "2097152", "[4096-16777216]", "The per-session cache in bytes for binary log changes during a transaction."),
	online("binlog_group_commit_sync_delay", "0", "[0-1000000]", "Microseconds a binary log commit waits before synchronising, to group more commits."),
	online("tx_isolation", "READ-COMMITTED", "[READ-UNCOMMITTED|READ-COMMITTED|REPEATABLE-READ|SERIALIZABLE]", "The default transaction isolation level.").onlyIn("5.7"),
	online("transaction_isolation", "READ-COMMITTED", "[READ-UNCOMMITTED|READ-COMMITTED|REPEATABLE-READ|SERIALIZABLE]", "The default transaction isolation level.").onlyIn("8.0"),
	needsRestart("character_set_server", "utf8", "[utf8|latin1|gbk|utf8mb4]", "The server's default character set.").versions("utf8", "utf8mb4"),
	needsRestart("lower_case_table_names", "1", "[0|1]", "Whether table names are stored in lowercase and compared case-insensitively.").onlyIn("5.7"),
	fixed("lower_case_table_names", "1", "[0|1]", "Whether table names are stored in lowercase; MySQL 8.0 fixes it when the instance is initialised.").onlyIn("8.0"),
	online("table_open_cache", "2000", "[1-524288]", "The number of open tables for all threads.").versions("2000", "4000"),
	online("table_definition_cache", "2000", "[400-524288]", "The number of table definitions kept in the definition cache."),
	online("thread_cache_size", "100", "[0-16384]", "How many threads the server caches for reuse."),
	online("tmp_table_size", "2097152", "[262144-134217728]", "The maximum size in bytes of an internal in-memory temporary table."),
	online("max_heap_table_size", "67108864", "[16384-1844674407370954752]", "The maximum size in bytes of a MEMORY table."),
	online("join_buffer_size", "262144", "[128-4294967295]", "The minimum size in bytes of the buffer for joins without indexes."),
	online("sort_buffer_size", "868352", "[32768-4294967295]", "The size in bytes of the buffer each session allocates to sort."),
	online("read_buffer_size", "868352", "[8200-2147479552]", "The size in bytes of the buffer for sequential scans."),
	online("read_rnd_buffer_size", "442368", "[1-2147483647]", "The size in bytes of the buffer for reading rows in sorted order."),
	needsRestart("back_log", "3000", "[0-65535]", "The number of outstanding connection requests MySQL can queue."),
	needsRestart("performance_schema", "OFF", "[ON|OFF]", "Whether the Performance Schema is enabled."),
	needsRestart("default_time_zone", "SYSTEM", timeZoneCheck(), "The server's default time zone."),
	online("explicit_defaults_for_timestamp", "OFF", "[ON|OFF]", "Whether TIMESTAMP columns get the standard SQL default handling.").versions("OFF", "ON"),
	online("event_scheduler", "OFF", "[ON|OFF]", "Whether the event scheduler runs."),
	online("net_read_timeout", "30", "[1-31536000]", "Seconds to wait for more data from a connection before aborting the read."),
	online("net_write_timeout", "60", "[1-31536000]", "Seconds to wait for a block to be written to a connection before aborting the write."),
	online("auto_increment_increment", "1", "[1-65535]", "The interval between successive auto-increment values."),
	online("auto_increment_offset", "1", "[1-65535]", "The starting point for auto-increment values."),
	online("loose_thread_pool_enabled", "ON", "[ON|OFF]", "Whether the AliSQL thread pool is enabled."),
}

// timeZoneCheck is SYSTEM or a whole-hour UTC offset from -12:00 to +13:00.
func timeZoneCheck() string {
	values := []string{"SYSTEM"}
	for h := -12; h <= 13; h++ {
		sign := "+"
		if h < 0 {
			sign = "-"
		}
		values = append(values, fmt.Sprintf("%s%02d:00", sign, abs(h)))
	}
	return "[" + strings.Join(values, "|") + "]"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// templateVersions are the MySQL versions the simulator has templates for.
var templateVersions = []string{"5.7", "8.0"}

// mysqlTemplate returns the template of one MySQL version, in table order; nil for a version
// without one.
func mysqlTemplate(version string) []paramTemplate {
	if !slices.Contains(templateVersions, version) {
		return nil
	}
	var out []paramTemplate
	for _, row := range mysqlParamRows {
		if row.only != "" && row.only != version {
			continue
		}
		t := row.paramTemplate
		if version == "5.7" && row.def57 != "" {
			t.def = row.def57
		}
		if version == "8.0" && row.def80 != "" {
			t.def = row.def80
		}
		out = append(out, t)
	}
	return out
}

// templateParam finds one parameter of an instance's template.
func templateParam(version, name string) (paramTemplate, bool) {
	for _, t := range mysqlTemplate(version) {
		if t.name == name {
			return t, true
		}
	}
	return paramTemplate{}, false
}
