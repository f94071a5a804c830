-- Unique visitors under one filter from the first day of a month (docs/ANALYTICS.md, "Filters"): per filter value
-- and final day, the distinct visitors of the month's days up to and including that one. A period from the first
-- of a month to a final day of it ("Este mês"'s comparison, "Mês passado") reads one row instead of counting the
-- distinct numbers of every day's array (55 ms for a month of the home page at a million visits). Null until the
-- roll-up job fills it, once the day is final; a read that finds it null counts the arrays as before.
alter table daily_filter_visitors add column month_to_date integer;

-- The rows still to fill: the open day's, and the final days' between a run that rewrote them and the fill.
create index daily_filter_visitors_unfilled on daily_filter_visitors (day) where month_to_date is null;
