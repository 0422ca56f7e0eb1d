"""What the report shows: tables, rendering, figure families (plots/)."""
