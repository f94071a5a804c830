-- One page, one row in "Páginas mais visitadas": page views are now stored under their page key
-- (src/shared/page_key.ts): the path plus query without the ad click ids (fbclid, gclid, gbraid, wbraid,
-- msclkid, ttclid: a new value on every ad click, their presence already kept in visits.click_ids) and the
-- path without a trailing slash (/pt-br/ and /pt-br are one page). This rewrites the rows stored before, raw
-- and rolled up, with the same rule, so old and new days group alike. Query pairs are compared by their name
-- as written, case folded (a percent-encoded name is left as it is, as it was never sent by the site).
create function page_key_00012(page text) returns text language sql immutable as $$
  select (case when rtrim(p.path, '/') = '' then '/' else rtrim(p.path, '/') end)
         || coalesce('?' || (
              select string_agg(pair, '&' order by i)
                from unnest(string_to_array(p.query, '&')) with ordinality as q(pair, i)
               where pair <> ''
                 and lower(split_part(pair, '=', 1)) not in ('fbclid', 'gclid', 'gbraid', 'wbraid', 'msclkid', 'ttclid')
            ), '')
    from (select split_part(split_part(page, '#', 1), '?', 1) as path,
                 substr(split_part(page, '#', 1), length(split_part(split_part(page, '#', 1), '?', 1)) + 2) as query) p
$$;

-- Only the rows that change: a trailing slash, an empty pair, a fragment, or a click id in the query.
update visits set source = page_key_00012(source)
 where source ~* '(/$|/[?#]|[?&](&|$)|#|[?&](fbclid|gclid|gbraid|wbraid|msclkid|ttclid)(=|&|$))'
   and source <> page_key_00012(source);

-- The roll-ups: pages (path plus query) and entry pages (path); rows that now share a key are added up.
insert into daily_visit_ranks (day, dimension, key, visits)
select day, dimension, page_key_00012(key), sum(visits)::int
  from daily_visit_ranks
 where dimension in ('page', 'entry_page') and key <> page_key_00012(key)
 group by 1, 2, 3
on conflict (day, dimension, key) do update set visits = daily_visit_ranks.visits + excluded.visits;
delete from daily_visit_ranks where dimension in ('page', 'entry_page') and key <> page_key_00012(key);

drop function page_key_00012(text);
