-- Leads per filter answered through the session (page, UTM content, UTM term, entry page), value, local day,
-- UTM source and last-touch channel: the session keys of the leads (00029) added up (docs/ANALYTICS.md,
-- "Filters"). Under one such filter, the headline, the daily chart, the channels, the conversion by UTM source
-- and the lead list's total count the days whose keys are written from these rows instead of looking up each
-- lead of the period by its keys. The roll-up job rewrites them with the keys; a lead stored late gets its keys
-- and its rows when it is stored, and an erased lead is taken out of them (src/db/filter_leads.ts). '' stands
-- for no UTM source or no channel.
create table daily_filter_leads (
  filter text not null,
  value text not null,
  day date not null,
  utm_source text not null,
  last_channel text not null,
  leads integer not null,
  primary key (filter, value, day, utm_source, last_channel)
);

-- Every lead key written so far, added up: the keys' days are already local days.
insert into daily_filter_leads (filter, value, day, utm_source, last_channel, leads)
select k.filter, k.value, k.day, coalesce(l.utm_source, ''), coalesce(l.last_channel, ''), count(*)::int
  from session_keys k join leads l on l.id = k.id
 where k.event = 'lead'
 group by 1, 2, 3, 4, 5;
