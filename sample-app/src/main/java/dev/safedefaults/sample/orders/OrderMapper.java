package dev.safedefaults.sample.orders;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * One SELECT and one UPDATE by primary key, through MyBatis, which runs them with
 * {@code PreparedStatement.execute()} as the incident's service did.
 */
@Mapper
public interface OrderMapper {

	@Select("SELECT id, customer, amount, status, views FROM orders WHERE id = #{id}")
	Order find(long id);

	@Update("UPDATE orders SET views = views + 1 WHERE id = #{id}")
	int touch(long id);

}
